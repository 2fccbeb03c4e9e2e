/**
 * `--depths auto` for the open-loop workloads (docs/openloop.md#knees): before the sweep's plan is fixed and recorded,
 * each size's closed-loop capacity is measured on a server of the sweep's own kind, one short trial of its closed twin
 * (echo pipelined 16 deep; http or proxy over the same connections) with every transport; the rates offered are then
 * doubling steps down from twice the highest capacity, the last at or above a sixteenth of the lowest. No bisection yet: a knee is known to
 * the ladder's step, a factor of 2.
 */
import { RunError } from '../core/errors.js';
import { startFixture } from '../fixture/fixture.js';
import { runLanes } from '../trial/lanes.js';
import { getWorkload } from '../workloads/index.js';

/** The ladder reaches down to this share of the lowest capacity, where every transport keeps its rate. */
export const AUTO_FLOOR = 1 / 16;
/** and up to this multiple of the highest, past every knee: open loop can keep more than closed loop measured. */
export const AUTO_CEILING = 2;

/**
 * The rates offered: doubling steps down from AUTO_CEILING × the highest capacity to AUTO_FLOOR × the lowest, within the
 * axis. Pure.
 * @param {number[]} capacities closed-loop rates, per second
 * @param {{ min: number, max: number }} axis the rate axis's bounds
 * @returns {number[]} ascending
 */
export function rateLadder(capacities, axis) {
  const top = Math.min(axis.max, Math.max(...capacities) * AUTO_CEILING);
  const bottom = Math.max(axis.min, Math.min(...capacities) * AUTO_FLOOR);
  /** @type {number[]} */
  const rates = [];
  for (let rate = top; rate >= bottom && rates.length < 32; rate /= 2) rates.unshift(Math.round(rate));
  return [...new Set(rates.length ? rates : [Math.round(bottom)])];
}

/**
 * Measure the closed-loop capacity of every size and transport, and the ladder from it.
 * @param {import('./spec.js').SweepSpec} spec its workload has a closed twin
 * @param {object} how
 * @param {Parameters<typeof startFixture>[1]} how.fixture the options the sweep starts its server with
 * @param {string[]} how.prefix the client's command prefix (--pin)
 * @param {import('../workloads/workload.js').TrialSpec['placement']} how.placement
 * @param {string} how.execPath the baseline Node (the ladder comes from its capacity)
 * @param {AbortSignal} [how.hurry] aborted (a second Ctrl-C): the probe's server killed at once
 * @returns {Promise<{ capacities: { size_bytes: number, transport: string, rate: number }[], rates: number[], how: string }>}
 */
export async function autoRates(spec, { fixture: options, prefix, placement, execPath, hurry }) {
  const workload = getWorkload(spec.workload);
  const closed = /** @type {NonNullable<typeof workload.closed>} */ (workload.closed);
  const twin = getWorkload(closed.workload);
  // a delay that caps the closed twin and not the open loop is left out of the probe
  const probed = closed.delay === false && options?.work ? { ...options, work: { ...options.work, delayMs: 0 } } : options;
  const server = await startFixture(workload, probed);
  const kill = () => server.kill();
  hurry?.addEventListener('abort', kill);
  try {
    /** @type {{ size_bytes: number, transport: string, rate: number }[]} */
    const capacities = [];
    for (const size of spec.sizes) {
      const depth = closed.depth(spec, size);
      const { records } = await runLanes({
        workload: twin.name, targets: spec.transports.map((t) => server.targets[t]), size, depth,
        measure: { ms: spec.test ? 100 : 300 }, warmup: { ms: spec.test ? 20 : 100 }, seed: spec.seed, noDelay: spec.noDelay,
        timeoutMs: spec.timeoutMs, blockMs: spec.blockMs, test: spec.test, keepalive: spec.keepalive, placement,
      }, { server, prefix, execPath, limitMs: spec.trialTimeoutMs });
      for (const r of records) {
        if (r.status !== 'ok') throw new RunError(`--depths auto: the closed-loop trial of ${r.transport} at ${size} B failed: ${r.error}`, 'ERR_AUTO_RATES');
        capacities.push({ size_bytes: size, transport: String(r.transport), rate: Math.round(Number(r[twin.primary])) }); // as printed
      }
    }
    const rates = rateLadder(capacities.map((c) => c.rate), workload.axes.depth);
    const how = `--depths auto: ${twin.name} at ${twin.axes.depth.short} ${[...new Set(spec.sizes.map((size) => closed.depth(spec, size)))].join('/')} measured ${capacities.map((c) => `${c.transport} ${c.size_bytes} B ${c.rate}/s`).join(', ')}; rates offered: doubling steps from ${AUTO_CEILING}× the highest, the last at or above ${AUTO_FLOOR}× the lowest`;
    return { capacities, rates, how };
  } finally {
    hurry?.removeEventListener('abort', kill);
    await server.stop();
  }
}
