/**
 * Each transport's knee in an open-loop sweep, its ratio to TCP's (or that ratio's bound), what stopped it at the next
 * rate up, and the percentile spectrum at half the lower knee: docs/openloop.md#knees. Closed-loop rows have no knee. Pure.
 */
import { isOpenLoop } from '../workloads/rate.js';
import { ratioInterval } from './ratios.js';
import { BASELINE, labelOf, orderTransports } from '../transports/index.js';
import { sizeLabel } from '../workloads/index.js';

/**
 * @typedef {object} TransportKnee
 * @property {string} transport
 * @property {(number | null)[]} runs the knee of each run, null where even the lowest rate was not kept
 * @property {number | null} knee the geometric mean of the runs' knees, null where a run has none
 * @property {import('./ratios.js').RatioInterval | null} interval the knee's 95 % interval over the runs (Student t on the log
 *   scale; its mean is `knee`), where every run, two or more, found it below the ladder's top; else null
 * @property {Record<string, number>} stoppedBy of the runs with a higher rate offered, how many the server stopped there and how many the generator
 * @property {number} missedBelow rates missed below the run's knee, over all runs (pauses of the machine, not the transport's limit)
 *
 * @typedef {object} KneeFinding
 * @property {string} workload
 * @property {string | null} node
 * @property {number} size_bytes
 * @property {number[]} rates the rates offered, ascending
 * @property {TransportKnee[]} transports TCP first
 * @property {Record<string, import('./ratios.js').RatioInterval | null>} ratios each other transport's knee against TCP's, by transport, over
 *   the runs where both knees were found below the ladder's top rate (null: no such run)
 * @property {Record<string, KneeBound>} bounds where a transport has no ratio because, in every run, it (or TCP) kept the
 *   ladder's top while the other's knee was found: the ratio's bound, the top rate over TCP's knee (at least) or the
 *   transport's knee over the top (at most), by transport
 * @property {Spectrum | null} spectrum the response-time percentile spectrum at half the lower knee (null: no knee known)
 * @property {string} line for people
 *
 * @typedef {object} KneeBound
 * @property {'at least' | 'at most'} side
 * @property {import('./ratios.js').RatioInterval} interval the bound's geometric mean over the runs, with its 95 % interval
 *
 * @typedef {object} Spectrum
 * @property {number} rate the rate it was measured at
 * @property {{ transport: string, run: number, percentile: string, x: number, us: number }[]} points per run that kept the
 *   rate, as docs/openloop.md#knees says; the max at x = the requests (or just past its last percentile)
 */

/** The percentiles of a spectrum: [p, column]. */
const SPECTRUM = /** @type {const} */ ([[50, 'resp_p50_us'], [90, 'resp_p90_us'], [99, 'resp_p99_us'], [99.9, 'resp_p999_us']]);

/**
 * @param {Record<string, any>[]} group one size's open-loop rows
 * @param {number[]} rates ascending
 * @param {TransportKnee[]} transports
 * @returns {Spectrum | null}
 */
function spectrumOf(group, rates, transports) {
  const knees = transports.map((t) => t.knee);
  const half = knees.every((k) => k !== null) ? Math.min(.../** @type {number[]} */ (knees)) / 2 : 0;
  const rate = [...rates].reverse().find((r) => r <= half) ?? rates[0];
  const points = group
    .filter((r) => Number(r.depth) === rate && r.status === 'ok' && r.limit === 'none')
    .flatMap((r) => {
      const requests = Number(r.requests);
      const percentiles = SPECTRUM.map(([p, column]) => ({ percentile: `${p} %`, x: Math.round(1 / (1 - p / 100)), us: Number(r[column]) }))
        .filter((point) => point.x < requests && point.us > 0);
      const last = percentiles.length ? percentiles[percentiles.length - 1].x : 1;
      const max = { percentile: 'max', x: requests > last ? requests : last * 2, us: Number(r.resp_max_us) };
      return [...percentiles, ...(max.us > 0 ? [max] : [])].map((point) => ({ transport: String(r.transport), run: Number(r.run), ...point }));
    });
  return points.length ? { rate, points } : null;
}

/** @param {number[]} values */
const geomean = (values) => (values.every((v) => v === values[0]) ? values[0] : Math.exp(values.reduce((s, v) => s + Math.log(v), 0) / values.length));

/**
 * @param {Record<string, any>[]} rows trial rows (run, node_version, size_bytes, depth, transport, status, limit)
 * @param {{ several?: boolean }} [options] several: the rows are of several Node versions (their lines say which)
 * @returns {KneeFinding[]}
 */
export function findKnees(rows, { several = false } = {}) {
  const open = rows.filter((r) => isOpenLoop(r) && r.status !== 'superseded');
  /** @type {Map<string, Record<string, any>[]>} */
  const groups = new Map();
  for (const r of open) {
    const key = `${r.workload}|${several ? r.node_version : ''}|${Number(r.size_bytes)}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].sort((a, b) => Number(a[0].size_bytes) - Number(b[0].size_bytes)).map((group) => {
    const { workload } = group[0];
    const node = several ? String(group[0].node_version) : null;
    const size = Number(group[0].size_bytes);
    const rates = [...new Set(group.map((r) => Number(r.depth)))].sort((a, b) => a - b);
    const top = rates[rates.length - 1];
    const runs = [...new Set(group.map((r) => Number(r.run)))].sort((a, b) => a - b);
    const transports = orderTransports(group.map((r) => String(r.transport))).map((transport) => {
      const mine = group.filter((r) => r.transport === transport);
      /** @type {Record<string, number>} */
      const stoppedBy = {};
      let missedBelow = 0;
      const perRun = runs.map((run) => {
        const at = rates.map((rate) => mine.find((r) => Number(r.run) === run && Number(r.depth) === rate));
        const kept = at.map((row) => row?.status === 'ok' && row.limit === 'none');
        const top = kept.lastIndexOf(true);
        missedBelow += at.filter((row, i) => i < top && row && !kept[i]).length;
        const next = at.slice(top + 1).find(Boolean);
        const why = next && (next.status === 'ok' ? next.limit : 'failed');
        if (why) stoppedBy[why] = (stoppedBy[why] ?? 0) + 1;
        return top < 0 ? null : rates[top];
      });
      const known = perRun.filter((k) => k !== null);
      // its interval over the runs, where every run found it below the top (a knee at the top is only a lower bound)
      const below = known.length === perRun.length && known.every((k) => /** @type {number} */ (k) < top);
      return { transport, runs: perRun, knee: known.length === perRun.length && known.length ? geomean(/** @type {number[]} */ (known)) : null, interval: below && known.length > 1 ? ratioInterval(known.map((k) => Math.log(/** @type {number} */ (k)))) : null, stoppedBy, missedBelow };
    });
    const base = transports.find((t) => t.transport === BASELINE);
    /** A knee found in a run: neither none nor the ladder's top (where the knee is only known to be higher). @param {number | null} k */
    const found = (k) => k !== null && k < top;
    /** @type {Record<string, import('./ratios.js').RatioInterval | null>} */
    const ratios = {};
    /** @type {Record<string, KneeBound>} */
    const bounds = {};
    for (const t of transports) {
      if (!base || t === base) continue;
      const logs = runs.flatMap((_, i) => (found(t.runs[i]) && found(base.runs[i]) ? [Math.log(/** @type {number} */ (t.runs[i]) / /** @type {number} */ (base.runs[i]))] : []));
      ratios[t.transport] = logs.length ? ratioInterval(logs) : null;
      if (logs.length) continue;
      // in every run one of the two kept the top while the other's knee was found: the ratio is bounded, on one side
      const above = runs.flatMap((_, i) => (t.runs[i] === top && found(base.runs[i]) ? [Math.log(top / /** @type {number} */ (base.runs[i]))] : []));
      const below = runs.flatMap((_, i) => (base.runs[i] === top && found(t.runs[i]) ? [Math.log(/** @type {number} */ (t.runs[i]) / top)] : []));
      if (above.length === runs.length) bounds[t.transport] = { side: 'at least', interval: ratioInterval(above) };
      else if (below.length === runs.length) bounds[t.transport] = { side: 'at most', interval: ratioInterval(below) };
    }
    return { workload, node, size_bytes: size, rates, transports, ratios, bounds, spectrum: spectrumOf(group, rates, transports), line: kneeLine({ workload, node, size, rates, transports, ratios, bounds }) };
  });
}

/**
 * @param {{ workload: string, node: string | null, size: number, rates: number[], transports: TransportKnee[], ratios: Record<string, import('./ratios.js').RatioInterval | null>, bounds: Record<string, KneeBound> }} finding
 */
function kneeLine({ workload, node, size, rates, transports, ratios, bounds }) {
  const top = rates[rates.length - 1];
  const rate = (/** @type {number} */ n) => `${Math.round(n).toLocaleString('en-US')}/s`;
  const each = transports.map((t) => {
    const stop = Object.entries(t.stoppedBy).sort((a, b) => b[1] - a[1]).map(([why]) => why);
    const above = stop.length ? `, then limited by the ${stop.join(' or ')}` : `, every rate up to ${rate(top)}`;
    const below = t.missedBelow ? ` (${t.missedBelow} lower rate${t.missedBelow > 1 ? 's' : ''} missed in a run, not counted: a rate kept above says the transport carried it)` : '';
    const ci = t.interval?.low && t.interval.high ? ` (95 % CI ${rate(t.interval.low)}–${rate(t.interval.high)})` : '';
    return `${labelOf(t.transport)} ${t.knee === null ? 'none (a run kept no rate)' : rate(t.knee)}${ci}${above}${below}`;
  });
  const interval = (/** @type {import('./ratios.js').RatioInterval} */ r, what = '') => (r.low === null || r.high === null ? ' (one run: no interval)' : ` (95 % CI${what} ${r.low.toFixed(2)}–${r.high.toFixed(2)}, ${r.n} runs)`);
  const boundWords = (/** @type {string} */ t, /** @type {KneeBound} */ b) => {
    const topped = labelOf(b.side === 'at least' ? t : BASELINE);
    return `${labelOf(t)}/TCP ${b.side} ×${b.interval.mean.toFixed(2)}${interval(b.interval, ' of that bound')}: ${topped} kept the ladder's top, ${rate(top)}, in every run, so its knee is higher (offer rates above ${rate(top)} to find it)`;
  };
  const ratioWords = Object.entries(ratios).map(([t, r]) => (r !== null ? `${labelOf(t)}/TCP ×${r.mean.toFixed(2)}${interval(r)}`
    : bounds[t] ? boundWords(t, bounds[t])
      : `${labelOf(t)}/TCP: no run with both knees below the ladder's top${transports.some((x) => x.runs.includes(top)) ? ` (offer rates above ${rate(top)} to find them)` : ''}`));
  return `${node ? `Node ${node}: ` : ''}knee at ${sizeLabel(workload, size)} (the largest rate offered that was kept; the ladder's step bounds it): ${each.join('; ')}${ratioWords.length ? `. ${ratioWords.join('; ')}` : ''}.`;
}
