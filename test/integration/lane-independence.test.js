/**
 * A pair's ratio does not depend on which other transports share the trial
 * (issue 20: in 0.5.0 ipc-json/TCP at 1 KiB × 1 was 0.45 in a pair and 1.35
 * among five, placed otherwise than TCP's lane; at depth 16 it paid for
 * ipc-advanced's garbage). ipc-json/TCP in a `tcp,ipc-json` trial and beside
 * the other message transports, at depth 16, small and short. The cause at
 * depth 1, a lane placed otherwise, is pinned where it is decided: every
 * lane's client and server CPU, test/integration/lane-placement. The full
 * comparison, every transport among all six at 1 KiB: npm run bench:lanes
 * (docs/validation.md).
 */
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture } from '../../lib/fixture/fixture.js';
import { channelTargets } from '../../lib/transports/index.js';
import { getWorkload } from '../../lib/workloads/index.js';
import { resolvePinning } from '../../lib/sweep/pinning.js';
import { runLanes } from '../../lib/trial/lanes.js';
import { pairedLogRatios, ratioInterval } from '../../lib/stats/ratios.js';

const AMONG = ['tcp', 'ipc-json', 'ipc-advanced', 'worker'];
const RUNS = 3;
const pinning = resolvePinning('split');
/** @type {import('../../lib/fixture/fixture.js').Fixture} */
let fixture;
beforeAll(async () => {
  expect(os.availableParallelism(), 'lanes are placed on CPUs 0 and 1').toBeGreaterThanOrEqual(2);
  expect(pinning.note).toBeUndefined();
  fixture = await startFixture(getWorkload('echo'), { noDelay: true, prefix: pinning.server });
});
afterAll(() => fixture?.stop());

/**
 * RUNS trials of these transports, the opening order alternating; their rows numbered by run.
 * Each measures a count, two blocks of the floor (100 × depth) per lane: the
 * interval is across the runs, so their blocks' number adds nothing to it.
 * @param {string[]} transports
 * @param {number} depth
 */
async function trials(transports, depth) {
  const targets = /** @type {Record<string, any>} */ ({ ...channelTargets(), ...fixture.targets });
  /** @type {Record<string, any>[]} */
  const rows = [];
  for (let run = 0; run < RUNS; run++) {
    const order = run % 2 === 0 ? transports : [...transports].reverse();
    const { records } = await runLanes({
      workload: 'echo', targets: order.map((t) => targets[t]), size: 64, depth, seed: run + 1, noDelay: true, timeoutMs: 5000,
      measure: { packets: 3200 }, warmup: { packets: 1600 }, blockMs: 5, placement: pinning.placement,
    }, { server: fixture, prefix: pinning.client, limitMs: 60_000 });
    for (const r of records) {
      expect(r.status, String(r.error)).toBe('ok');
      rows.push({ ...r, run });
    }
  }
  return rows;
}

describe.each([16])('depth %i', (depth) => {
  it('ipc-json/TCP in a pair and beside ipc-advanced and worker agree', { timeout: 90_000, retry: 2 }, async () => {
    const pair = ratioInterval(pairedLogRatios(await trials(['tcp', 'ipc-json'], depth), 'msgs_per_s', 'ipc-json'));
    const among = ratioInterval(pairedLogRatios(await trials(AMONG, depth), 'msgs_per_s', 'ipc-json'));
    const overlap = /** @type {number} */ (pair.low) <= /** @type {number} */ (among.high) && /** @type {number} */ (among.low) <= /** @type {number} */ (pair.high);
    // intervals of three short runs on a shared machine: overlapping, or at least within 25 % (0.5.0 was 3× apart)
    const apart = Math.max(pair.mean, among.mean) / Math.min(pair.mean, among.mean);
    expect(overlap || apart < 1.25, `ipc-json × ${depth}: ${pair.mean.toFixed(2)} [${pair.low?.toFixed(2)}–${pair.high?.toFixed(2)}] in a pair, ${among.mean.toFixed(2)} [${among.low?.toFixed(2)}–${among.high?.toFixed(2)}] among ${AMONG.join(', ')}`).toBe(true);
    // measured beside another test file's sweeps, which pin their processes to the same two CPUs: once in a
    // CI run it came out 0.61 in a pair and 0.43 among four (alone, and beside sweep-e2e-more, it passes);
    // a real dependence, as in 0.5.0, fails all three tries
  });
});
