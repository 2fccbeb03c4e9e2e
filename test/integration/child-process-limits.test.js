import { describe, expect, it } from 'vitest';
import { spawnServer } from '../../lib/fixture/server-process.js';
import { runLanes } from '../../lib/trial/lanes.js';

/** A native frame as V8 prints it under a fatal error: ` 11: 0x195e376 [/usr/bin/node]`. */
const FRAME = /0x[0-9a-f]+ +\[/;

/** A trial that never gets to connect: the process dies while Node starts. */
const spec = {
  workload: /** @type {const} */ ('echo'), targets: [{ transport: /** @type {const} */ ('tcp'), host: '127.0.0.1', port: 9 }], size: 64, depth: 1,
  measure: { packets: 10 }, warmup: { packets: 0 }, seed: 1, noDelay: true, timeoutMs: 2000,
};

/**
 * A prefix that runs node under a shell limit.
 * @param {string} limit e.g. 'ulimit -v 600000'
 */
const prefix = (limit) => ['bash', '-c', `${limit} && exec "$@"`, 'bash'];

/** @param {string} limit */
const underLimit = async (limit) => (await runLanes(spec, { prefix: prefix(limit), limitMs: 60_000 })).records[0];

describe('a child process that dies of a resource limit is one clear line', () => {
  it('V8 out of memory at start (ulimit -v) is said as such, not as a native stack frame', async () => {
    const record = await underLimit('ulimit -v 600000');
    expect(record.status).toBe('error');
    expect(record.error).toMatch(/^out of memory in the tcp lane's process \(V8: [^)]+\)/);
    expect(record.error).not.toMatch(FRAME);
  });

  it('too few file descriptors to load the modules (ulimit -n) names ulimit -n', async () => {
    const record = await underLimit('ulimit -n 22');
    expect(record.status).toBe('error');
    expect(record.error).toMatch(/^too many open files in the tcp lane's process; the open-file limit is ulimit -n \d+: raise it/);
    expect(record.error).not.toMatch(/\n|node:internal|FileHandle/);
  });

  it('a server process that dies of it says so too: the fixture fails with one line, not a frame', async () => {
    const error = await spawnServer({ prefix: prefix('ulimit -v 600000') }).then(() => null, (e) => e);
    expect(error?.message).toMatch(/^out of memory in the echo server process \(V8: [^)]+\)/);
    expect(error?.message).not.toMatch(FRAME);
  });
});
