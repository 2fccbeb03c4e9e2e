/**
 * `--depths auto` for the open-loop workloads (docs/openloop.md#knees): before the sweep's plan is fixed and recorded,
 * each size's closed-loop capacity is measured on a server of the sweep's own kind, one short trial of its closed twin
 * (echo pipelined 16 deep; http or proxy over the same connections) with every transport; the rates offered are then
 * doubling steps down from twice the highest capacity, the last at or above a sixteenth of the lowest (a quarter with
 * --test: a shorter ladder, fewer trials), and each transport's
 * knee at each size bisected with short open-loop trials (bisectKnee): the last rate it kept and the first it missed join them.
 */
import { RunError } from '../core/errors.js';
import { startFixture } from '../fixture/fixture.js';
import { runLanes } from '../trial/lanes.js';
import { getWorkload } from '../workloads/index.js';

/** The ladder reaches down to this share of the lowest capacity, where every transport keeps its rate. */
const AUTO_FLOOR = 1 / 16;
/** and with --test (a check that the tool works, not figures) to this share: two steps fewer to sweep and to walk. */
export const AUTO_FLOOR_TEST = 1 / 4;
/** and up to this multiple of the highest, past every knee: open loop can keep more than closed loop measured. */
const AUTO_CEILING = 2;
/** Rates offered at most. */
const MAX_RATES = 32;

/**
 * The rates offered: doubling steps down from AUTO_CEILING × the highest capacity to `floor` × the lowest, within the
 * axis. Pure.
 * @param {number[]} capacities closed-loop rates, per second
 * @param {{ min: number, max: number }} axis the rate axis's bounds
 * @param {number} [floor] AUTO_FLOOR, or AUTO_FLOOR_TEST with --test
 * @returns {number[]} ascending
 */
export function rateLadder(capacities, axis, floor = AUTO_FLOOR) {
  const top = Math.min(axis.max, Math.max(...capacities) * AUTO_CEILING);
  const bottom = Math.max(axis.min, Math.min(...capacities) * floor);
  /** @type {number[]} */
  const rates = [];
  for (let rate = top; rate >= bottom && rates.length < MAX_RATES; rate /= 2) rates.unshift(Math.round(rate));
  return [...new Set(rates.length ? rates : [Math.round(bottom)])];
}

/**
 * A transport's knee: from the ladder's step at or below `start`, up the ladder while each rate is kept, or down while
 * missed; then `steps` bisections (the geometric mean, rounded) between the last rate kept and the first missed. Pure
 * but for tryRate; an abort ends it between trials.
 * @param {(rate: number) => Promise<string>} tryRate the `limit` of a short open-loop trial at that rate (none: kept)
 * @param {{ ladder: number[], start: number, steps: number, signal?: AbortSignal }} how ladder ascending, its ends the floor and ceiling
 * @returns {Promise<{ kept: number | null, missed: number | null, tried: { rate: number, kept: boolean, limit: string }[] }>} null: below
 *   the floor, above the ceiling
 */
export async function bisectKnee(tryRate, { ladder, start, steps, signal }) {
  /** @type {{ rate: number, kept: boolean, limit: string }[]} */
  const tried = [];
  const keeps = async (/** @type {number} */ rate) => {
    const limit = await tryRate(rate);
    tried.push({ rate, kept: limit === 'none', limit });
    return limit === 'none';
  };
  let [kept, missed] = [/** @type {number | null} */ (null), /** @type {number | null} */ (null)];
  for (let i = Math.max(0, ladder.filter((r) => r <= start).length - 1); i >= 0 && i < ladder.length && !signal?.aborted;) {
    if (await keeps(ladder[i])) {
      kept = ladder[i++];
      if (missed !== null) break;
    } else {
      missed = ladder[i--];
      if (kept !== null) break;
    }
  }
  for (let n = 0; n < steps && kept !== null && missed !== null && !signal?.aborted; n++) {
    const mid = Math.round(Math.sqrt(kept * missed));
    if (mid <= kept || mid >= missed) break;
    if (await keeps(mid)) kept = mid;
    else missed = mid;
  }
  return { kept, missed, tried };
}

/**
 * The ladder with the knees' rates, ascending, at most MAX_RATES: past it, the rates kept (the knees) before those missed.
 * @param {number[]} ladder
 * @param {{ kept: number | null, missed: number | null }[]} knees
 */
export function withKnees(ladder, knees) {
  const added = [...knees.map((k) => k.kept), ...knees.map((k) => k.missed)].flatMap((r) => (r === null ? [] : [r]));
  return [...new Set([...ladder, ...added])].slice(0, Math.max(MAX_RATES, ladder.length)).sort((a, b) => a - b);
}

/**
 * Measure the closed-loop capacity of every size and transport, the ladder from it, and each one's knee on it.
 * @param {import('./spec.js').SweepSpec} spec its workload has a closed twin
 * @param {object} how
 * @param {Parameters<typeof startFixture>[1]} how.fixture the options the sweep starts its server with
 * @param {string[]} how.prefix the client's command prefix (--pin)
 * @param {import('../workloads/workload.js').TrialSpec['placement']} how.placement
 * @param {string} how.execPath the baseline Node (the ladder comes from its capacity)
 * @param {AbortSignal} [how.signal] aborted (a Ctrl-C): no more bisection, the rates so far offered
 * @param {AbortSignal} [how.hurry] aborted (a second Ctrl-C): the probe's server killed, its trial ended and no other started
 * @returns {Promise<{ capacities: { size_bytes: number, transport: string, rate: number }[], rates: number[], how: string }>}
 */
export async function autoRates(spec, { fixture: options, prefix, placement, execPath, signal, hurry }) {
  const workload = getWorkload(spec.workload);
  const closed = /** @type {NonNullable<typeof workload.closed>} */ (workload.closed);
  const twin = getWorkload(closed.workload);
  // a delay that caps the closed twin and not the open loop is left out of the probe
  const probed = closed.delay === false && options?.work ? { ...options, work: { ...options.work, delayMs: 0 } } : options;
  const server = await startFixture(workload, probed);
  const kill = () => server.kill();
  hurry?.addEventListener('abort', kill);
  try {
    const trial = {
      measure: { ms: spec.test ? 100 : 300 }, warmup: { ms: spec.test ? 20 : 100 }, seed: spec.seed, noDelay: spec.noDelay,
      timeoutMs: spec.timeoutMs, blockMs: spec.blockMs, test: spec.test, keepalive: spec.keepalive, placement,
    };
    const context = { server, prefix, execPath, limitMs: spec.trialTimeoutMs, signal: hurry };
    /** @type {{ size_bytes: number, transport: string, rate: number }[]} */
    const capacities = [];
    for (const size of spec.sizes) {
      const depth = closed.depth(spec, size);
      const { records } = await runLanes({ ...trial, workload: twin.name, targets: spec.transports.map((t) => server.targets[t]), size, depth }, context);
      for (const r of records) {
        if (r.status !== 'ok') throw new RunError(`--depths auto: the closed-loop trial of ${r.transport} at ${size} B failed: ${r.error}`, 'ERR_AUTO_RATES');
        capacities.push({ size_bytes: size, transport: String(r.transport), rate: Math.round(Number(r[twin.primary])) }); // as printed
      }
    }
    const floor = spec.test ? AUTO_FLOOR_TEST : AUTO_FLOOR;
    const ladder = rateLadder(capacities.map((c) => c.rate), workload.axes.depth, floor);
    const steps = spec.test ? 1 : 3;
    const knees = [];
    for (const { size_bytes: size, transport, rate: start } of capacities) {
      const tryRate = async (/** @type {number} */ rate) => {
        const { records: [r] } = await runLanes({ ...trial, workload: workload.name, targets: [server.targets[transport]], size, depth: rate, arrivals: spec.arrivals, connections: spec.connections }, context);
        if (r.status !== 'ok') throw new RunError(`--depths auto: the open-loop trial of ${transport} at ${size} B, ${rate}/s, failed: ${r.error}`, 'ERR_AUTO_RATES');
        return String(r.limit);
      };
      knees.push({ size, transport, ...(await bisectKnee(tryRate, { ladder, start, steps, signal })) });
    }
    const rates = withKnees(ladder, knees);
    const bisected = knees.map((k) => `${k.transport} ${k.size} B ${k.kept === null ? 'kept none' : `kept ${k.kept}/s`} ${k.missed === null ? 'missed none' : `missed ${k.missed}/s`} (${k.tried.length} trials)`);
    const how = `--depths auto: ${twin.name} at ${twin.axes.depth.short} ${[...new Set(spec.sizes.map((size) => closed.depth(spec, size)))].join('/')} measured ${capacities.map((c) => `${c.transport} ${c.size_bytes} B ${c.rate}/s`).join(', ')}; rates offered: doubling steps from ${AUTO_CEILING}× the highest, the last at or above ${floor}× the lowest${spec.test ? ' (--test)' : ''}; each knee found in short ${workload.name} trials up or down the ladder from its capacity, then bisected ${steps}×: ${bisected.join(', ')}${signal?.aborted ? ' (cut short by a Ctrl-C)' : ''}`;
    return { capacities, rates, how };
  } finally {
    hurry?.removeEventListener('abort', kill);
    await server.stop();
  }
}
