import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnServer } from '../../lib/fixture/server-process.js';
import { runLanes } from '../../lib/trial/lanes.js';
import { runTrial } from '../../lib/trial/trial.js';

/** @param {import('../../lib/trial/trial.js').TrialSpec} spec the record of a one-target trial */
const runOne = async (spec) => (await runTrial(spec)).records[0];
import { makeTempDir } from '../helpers/cli.js';
import { startTcpServer } from '../helpers/servers.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => tmp.remove());

/** @param {import('../../lib/client/transport.js').Target} target */
const greetingSpec = (target) => ({
  workload: /** @type {const} */ ('echo'), targets: [target], size: 64, depth: 1,
  measure: { packets: 10 }, warmup: { packets: 0 }, seed: 1, noDelay: true, timeoutMs: 300, greeting: true,
});

describe('faults clean up after themselves', () => {
  it('a server child that cannot start reports why at once and exits', async () => {
    const file = join(tmp.dir, 'plain.txt');
    await writeFile(file, 'x');
    const started = performance.now();
    await expect(spawnServer({ path: file })).rejects.toThrow(/exists and is not a socket/);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('a lane process that cannot be spawned becomes an error row, not a hang', async () => {
    const { records: [record] } = await runLanes(greetingSpec({ transport: 'tcp', host: '127.0.0.1', port: 1 }), { prefix: [join(tmp.dir, 'no-such-command')], limitMs: 5000 });
    expect(record.status).toBe('error');
    expect(record.error).toMatch(/no-such-command|ENOENT/);
  });

  it('a lane process that has not reported by its limit is killed after a grace, and the error names the limit that was set', async () => {
    // a lane process that never reports: sh execs sleep in its place
    const spec = { ...greetingSpec({ transport: 'tcp', host: '127.0.0.1', port: 1 }), maxMs: 200 };
    const { records: [record] } = await runLanes(spec, { prefix: ['sh', '-c', 'exec sleep 30', 'sh'], limitMs: 200, graceMs: 100 });
    expect(record.error).toBe('trial exceeded its limit of 0.2 s (--trial-timeout) and its lane processes had not reported 0.1 s later; they were killed');
  });

  it('a connection reset while waiting for the greeting is an error row and the socket is closed', async () => {
    const rude = await startTcpServer((socket) => { setTimeout(() => socket.resetAndDestroy(), 50); });
    try {
      const record = await runOne(greetingSpec(rude.target));
      expect(record.status).toBe('error');
      expect(record.error).toMatch(/before (its|the) greeting/);
    } finally {
      await rude.close();
    }
  });

  it('a missing greeting times out and closes the connection', async () => {
    /** @type {Promise<boolean>[]} */
    const closed = [];
    const silent = await startTcpServer((socket) => { closed.push(new Promise((resolve) => socket.once('close', () => resolve(true)))); });
    try {
      const record = await runOne(greetingSpec(silent.target));
      expect(record.error).toBe('no greeting within 300 ms');
      expect(closed).toHaveLength(1);
      expect(await closed[0]).toBe(true); // the server sees the client's close
    } finally {
      await silent.close();
    }
  });
});
