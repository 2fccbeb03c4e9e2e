import { describe, expect, it } from 'vitest';
import { ECHO_GREETING as GREETING } from '../../lib/fixture/handlers.js';
import { runTrial } from '../../lib/trial/trial.js';

/** @param {import('../../lib/trial/trial.js').TrialSpec} spec the record of a one-target trial */
const runOne = async (spec) => (await runTrial(spec)).records[0];
import { corruptingServer, greetingServer, replayingServer } from '../helpers/servers.js';

/**
 * @param {import('../../lib/client/transport.js').Target} target
 * @param {number} size
 */
const spec = (target, size) => ({
  workload: /** @type {const} */ ('echo'), targets: [target], size, depth: 4,
  measure: { packets: 200 }, warmup: { packets: 0 },
  seed: 9, noDelay: true, timeoutMs: 5000,
});

describe('every echoed byte is verified', () => {
  it.each([
    [64, 64 * 37 + 5, 37, 5],
    [1, 150, 150, 0],
    [4096, 4096 * 120 + 4095, 120, 4095],
    [8 * 1024 * 1024, 8 * 1024 * 1024 * 3 + 5, 3, 5], // overlapping packets: checked packet by packet
  ])('a server corrupting one byte (size %i, stream byte %i) fails the trial at packet %i byte %i', async (size, offset, packet, byte) => {
    const bad = await corruptingServer(offset);
    try {
      const record = await runOne(spec(bad.target, size));
      expect(record.status).toBe('error');
      expect(record.error).toMatch(new RegExp(`^echo mismatch at packet ${packet} byte ${byte}: sent 0x[0-9a-f]{2}, got 0x[0-9a-f]{2}$`));
      expect(record.msgs_per_s).toBeNull();
    } finally {
      await bad.close();
    }
  });

  it('catches a stale packet replayed in flight (every packet in flight is distinct)', async () => {
    const size = 64 * 1024;
    const stale = await replayingServer(size, 8);
    try {
      const record = await runOne({ ...spec(stale.target, size), depth: 16, measure: { packets: 40 } });
      expect(record.status).toBe('error');
      expect(record.error).toMatch(/^echo mismatch at packet 8 byte 0/);
    } finally {
      await stale.close();
    }
  });

  it('reads and checks the 2014 greeting before echoing', async () => {
    const greeter = await greetingServer(GREETING);
    try {
      const ok = await runOne({ ...spec(greeter.target, 64), greeting: true });
      expect(ok.status, String(ok.error)).toBe('ok');
      const confused = await runOne(spec(greeter.target, 64)); // greeting not expected: bytes differ
      expect(confused.status).toBe('error');
      expect(confused.error).toMatch(/^echo mismatch at packet 0 byte 0/);
    } finally {
      await greeter.close();
    }
  });
});
