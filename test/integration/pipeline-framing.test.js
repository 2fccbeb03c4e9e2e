import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../lib/fixture/server.js';
import { runTrial } from '../../lib/trial/trial.js';

/** @param {import('../../lib/trial/trial.js').TrialSpec} spec the record of a one-target trial */
const runOne = async (spec) => (await runTrial(spec)).records[0];
import { rechunkingServer } from '../helpers/servers.js';

/**
 * @param {import('../../lib/client/transport.js').Target} target
 * @param {number} size
 * @param {number} depth
 * @param {number} packets
 */
const spec = (target, size, depth, packets) => ({
  workload: /** @type {const} */ ('echo'), targets: [target], size, depth,
  measure: { packets }, warmup: { packets: Math.min(100, packets) },
  seed: 3, noDelay: true, timeoutMs: 5000,
});

describe('framing by byte count', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it.each([
    ['coalesced reads: 1 B × 64 in flight', 1, 64, 3000],
    ['coalesced reads: 64 B × 512 in flight', 64, 512, 3000],
    ['split reads: 256 KiB packets', 256 * 1024, 2, 40],
    ['split reads of overlapping packets: 8 MiB × 2', 8 * 1024 * 1024, 2, 6],
    ['split and coalesced: 3 KiB-ish 4096 B × 33', 4096, 33, 600],
  ])('%s, both transports, exact packet count', async (_name, size, depth, packets) => {
    for (const target of [{ transport: /** @type {const} */ ('tcp'), ...server.tcp }, { transport: /** @type {const} */ ('uds'), path: server.uds.path }]) {
      const record = await runOne(spec(target, size, depth, packets));
      expect(record.status, String(record.error)).toBe('ok');
      expect(record.packets).toBe(packets);
      expect(record.transport).toBe(target.transport);
      expect(Number(record.rtt_p50_us)).toBeGreaterThan(0);
      expect(Number(record.rtt_max_us)).toBeGreaterThanOrEqual(Number(record.rtt_p99_us));
    }
  });

  it('survives a server that re-chunks the stream into 1–7 byte pieces and runs', async () => {
    const odd = await rechunkingServer();
    try {
      const record = await runOne(spec(odd.target, 16, 8, 500));
      expect(record.status, String(record.error)).toBe('ok');
      expect(record.packets).toBe(500);
    } finally {
      await odd.close();
    }
  });

  it('times a --duration run by wall clock, however deep the pipeline', async () => {
    const target = { transport: /** @type {const} */ ('uds'), path: server.uds.path };
    const record = await runOne({ ...spec(target, 64, 32, 1), measure: { ms: 300 }, warmup: { ms: 50 } });
    expect(record.status, String(record.error)).toBe('ok');
    expect(Number(record.elapsed_ms)).toBeGreaterThanOrEqual(300);
    expect(Number(record.elapsed_ms)).toBeLessThan(3000);
    expect(Number(record.msgs_per_s)).toBeCloseTo(Number(record.packets) / (Number(record.elapsed_ms) / 1000), 6);
  });
});
