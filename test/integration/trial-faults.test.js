import { describe, expect, it } from 'vitest';
import { startServer } from '../../lib/fixture/server.js';
import { runTrial } from '../../lib/trial/trial.js';

/** @param {import('../../lib/trial/trial.js').TrialSpec} spec the record of a one-target trial */
const runOne = async (spec) => (await runTrial(spec)).records[0];
import { closingServer, stallingServer, startTcpServer } from '../helpers/servers.js';

/**
 * @param {import('../../lib/client/transport.js').Target} target
 * @param {number} [timeoutMs]
 */
const spec = (target, timeoutMs = 5000) => ({
  workload: /** @type {const} */ ('echo'), targets: [target], size: 64, depth: 2,
  measure: { packets: 1000 }, warmup: { packets: 0 },
  seed: 1, noDelay: true, timeoutMs,
});

describe('faults become error rows, never hangs', () => {
  it('a server that stops echoing ends at --timeout with a clear error', async () => {
    const mute = await stallingServer(64 * 10);
    try {
      const started = performance.now();
      const record = await runOne(spec(mute.target, 300));
      expect(record.status).toBe('error');
      expect(record.error).toMatch(/^no echo for 300 ms \(--timeout\) with 2 packets in flight after 10 complete$/);
      expect(performance.now() - started).toBeLessThan(5000);
    } finally {
      await mute.close();
    }
  });

  it('a server that closes mid-trial fails the trial', async () => {
    const quitter = await closingServer(64 * 20);
    try {
      const record = await runOne(spec(quitter.target));
      expect(record.status).toBe('error');
      expect(record.error).toMatch(/^server closed the connection after 20 of 2\d packets sent$/);
    } finally {
      await quitter.close();
    }
  });

  it('a server snapshot missing at a block boundary fails the trial, never an empty cell', async () => {
    const server = await startServer();
    try {
      let calls = 0;
      const probe = { snapshot: async () => { if (++calls === 2) throw new Error('echo server did not answer a stats request within 2 s'); return server.stats(); } };
      const { records } = await runTrial({ ...spec({ transport: 'uds', path: server.uds.path }), measure: { packets: 2000 }, warmup: { packets: 100 }, depth: 1 }, { probe });
      expect(records[0].status).toBe('error');
      expect(records[0].error).toBe("no server stats at a block boundary (echo server did not answer a stats request within 2 s); the server's CPU cannot be charged");
    } finally {
      await server.close();
    }
  });

  it('no server listening fails to connect with a hint', async () => {
    const gone = await startTcpServer(() => {});
    const target = gone.target;
    await gone.close();
    const record = await runOne(spec(target));
    expect(record.status).toBe('error');
    expect(record.error).toBe(`cannot connect to tcp 127.0.0.1:${target.port}: ECONNREFUSED (is the echo server running?)`);
  });

  it.each([['connect', 'greeter', 12], ['stream', 'sink', 64]])('no server listening: the %s workload\'s hint names its own server (the %s)', async (workload, server, size) => {
    const gone = await startTcpServer(() => {});
    const target = gone.target;
    await gone.close();
    const record = await runOne({ ...spec(target), workload: /** @type {any} */ (workload), size, depth: 1, measure: { ms: 50 } });
    expect(record.status).toBe('error');
    expect(record.error).toBe(`cannot connect to tcp 127.0.0.1:${target.port}: ECONNREFUSED (is the ${server} server running?)`);
  });

  it('a server that sends bytes it was never sent fails verification', async () => {
    const chatty = await startTcpServer((socket) => socket.on('data', (chunk) => socket.write(Buffer.concat([chunk, chunk]))));
    try {
      const record = await runOne({ ...spec(chatty.target), depth: 1 });
      expect(record.status).toBe('error');
      expect(record.error).toMatch(/^server sent 64 bytes that were never sent to it|^echo mismatch at packet 1 byte 0/);
    } finally {
      await chatty.close();
    }
  });
});
