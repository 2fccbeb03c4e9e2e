/**
 * Are a trial's lanes measured under equal conditions? Each lane's client and server threads are read at its blocks'
 * edges (lib/client/blocks.js): which CPUs they ran on, how often they shared one. Lanes sharing a CPU, or preempted,
 * at different rates compare placements as well as transports: on a 2-vCPU VM sharing a CPU made a depth-1 round trip
 * 2.5–4× faster (docs/regimes.md). A lane beyond these bounds from TCP's gets a `lane_check` note naming what differs.
 */
import { BASELINE } from '../transports/index.js';

/** The bounds of the check, as docs/method.md states them. */
export const LANE_BOUNDS = Object.freeze({
  /** the shares of block edges at which a lane's ends were on one CPU differ by more than this */
  sameCpuShare: 0.25,
  /** client involuntary context switches per unit differ by more than this … */
  preemptionsPerUnit: 0.25,
  /** … and by more than this factor */
  preemptionsFactor: 2,
});

/** @type {(x: unknown) => x is number} */
const isNumber = (x) => typeof x === 'number' && Number.isFinite(x);

/**
 * Where one lane differs from the baseline's beyond LANE_BOUNDS, in words; '' where it does not.
 * @param {Record<string, any>} lane
 * @param {Record<string, any>} baseline
 * @returns {string}
 */
export function laneDifference(lane, baseline) {
  /** @type {string[]} */
  const notes = [];
  const a = lane.same_cpu_share;
  const b = baseline.same_cpu_share;
  if (isNumber(a) && isNumber(b) && Math.abs(a - b) > LANE_BOUNDS.sameCpuShare) {
    notes.push(`its ends on one CPU at ${pct(a)} of block edges, ${baseline.transport}'s at ${pct(b)}`);
  }
  const key = Object.keys(lane).find((k) => /^client_ivcsw_per_\w+$/.test(k));
  if (key) {
    const x = lane[key];
    const y = baseline[key];
    if (isNumber(x) && isNumber(y) && Math.abs(x - y) > LANE_BOUNDS.preemptionsPerUnit && Math.max(x, y) > LANE_BOUNDS.preemptionsFactor * Math.min(x, y)) {
      notes.push(`client preempted ${fixed(x)} times per ${key.slice('client_ivcsw_per_'.length)}, ${baseline.transport}'s ${fixed(y)}`);
    }
  }
  if (!notes.length) return '';
  const where = (/** @type {Record<string, any>} */ r) => `client on cpu ${r.client_cpus || '?'}, server on cpu ${r.server_cpus || '?'}`;
  return `unequal conditions: ${notes.join('; ')} (${where(lane)}; ${baseline.transport}: ${where(baseline)})`;
}

/**
 * The records of one trial, each lane checked against the baseline's; nothing is checked without an ok baseline lane.
 * @template {Record<string, any>} R
 * @param {R[]} records
 * @returns {R[]}
 */
export function checkLanes(records) {
  const baseline = records.find((r) => r.transport === BASELINE && r.status === 'ok');
  if (!baseline) return records;
  return records.map((r) => (r.status !== 'ok' ? r : { ...r, lane_check: r === baseline ? '' : laneDifference(r, baseline) }));
}

const pct = (/** @type {number} */ x) => `${Math.round(x * 100)} %`;
const fixed = (/** @type {number} */ x) => (x < 0.01 ? x.toPrecision(2) : x.toFixed(2));
