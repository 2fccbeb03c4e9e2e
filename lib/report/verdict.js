/**
 * Verdicts in plain words, a line per depth: docs/cli.md#verdicts. Pure.
 */
import { depthLabel, sizeLabel } from '../workloads/index.js';
import { figureOf } from '../workloads/figures.js';
import { BASELINE, HEADLINE, labelOf } from '../transports/index.js';
import { estimatesOf, ratioAgainstTcp } from './estimates.js';

/**
 * mostDifferent looks only where the primary ratio is outside 1 ± FAR (its CI excluding 1), at figures of MIN_PER_UNIT
 * per unit or more: a difference in something that happens once in a hundred messages explains nothing.
 */
export const FAR = 0.1;
export const MIN_PER_UNIT = 0.05;

/**
 * @typedef {object} Mechanism
 * @property {string} metric e.g. client_writes_per_chunk
 * @property {string} label in words: "client write calls per chunk"
 * @property {number} ratio to TCP (geometric mean of paired runs)
 *
 * @typedef {(size: number) => string} SizeWords a size in the workload's words (sizeLabel: `64 B`, `1 lookup`)
 */

/**
 * @param {Record<string, import('./findings.js').Comparison>} figures a size row's figures, by metric
 * @param {string} primary the primary figure's metric
 * @param {string} [transport] the one against TCP
 * @returns {Mechanism | null}
 */
export function mostDifferent(figures, primary, transport = HEADLINE) {
  const p = figures[primary] && ratioAgainstTcp(figures[primary], transport);
  if (!p || p.significant !== 'yes' || Math.abs(p.value - 1) <= FAR) return null;
  /** @type {Mechanism | null} */
  let best = null;
  for (const [metric, c] of Object.entries(figures)) {
    const ratio = ratioAgainstTcp(c, transport);
    const [tcp, other] = [estimatesOf(c)[BASELINE], estimatesOf(c)[transport]];
    if (!figureOf(metric).mechanism || !ratio || ratio.significant !== 'yes' || !tcp || !other) continue;
    if (Math.max(tcp.value, other.value) < MIN_PER_UNIT || !(ratio.value > 0)) continue;
    if (best && Math.abs(Math.log(ratio.value)) <= Math.abs(Math.log(best.ratio))) continue;
    best = { metric, label: figureOf(metric).label, ratio: ratio.value };
  }
  return best;
}

/** An interval that includes 1 and stays within this of it is reported as "no difference larger than X %". */
const SAME_WITHIN = 0.2;

/**
 * @typedef {Pick<import('./findings.js').Estimate, 'value' | 'low' | 'high' | 'n'>} Ratio a ratio to TCP (low and high null with one run)
 *
 * @typedef {'above' | 'below' | 'same' | 'unclear' | 'single' | 'none'} Verdict
 *
 * @typedef {{ size_bytes: number, ratio: Ratio | null, mechanism?: Mechanism | null }} SizeVerdict
 */

/** How far from 1 (no difference) the interval reaches, as a fraction. @param {{ low: number, high: number }} ci */
const largestDifference = ({ low, high }) => Math.max(high - 1, 1 - low);

/**
 * The largest difference in whole percent, rounded up (never understated).
 * @param {number} fraction
 */
export function percentUp(fraction) {
  return Math.max(1, Math.ceil(Number((fraction * 100).toFixed(9))));
}

/**
 * @param {Ratio | null | undefined} ratio
 * @returns {Verdict}
 */
export function classify(ratio) {
  if (!ratio) return 'none';
  if (ratio.low === null || ratio.high === null) return 'single';
  if (ratio.low > 1) return 'above';
  if (ratio.high < 1) return 'below';
  return largestDifference({ low: ratio.low, high: ratio.high }) <= SAME_WITHIN ? 'same' : 'unclear';
}

/**
 * A ratio for people: two decimals, or two significant digits below 0.1 (never a bare 0.00).
 * @param {number} v
 */
export const formatRatio = (v) => (Math.abs(v) >= 0.1 || v === 0 ? v.toFixed(2) : v.toPrecision(2));

/**
 * Ratios for people: `1.40`, or a range `1.21–1.25`.
 * @param {number[]} values
 */
export function span(values) {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return formatRatio(low) === formatRatio(high) ? formatRatio(low) : `${formatRatio(low)}–${formatRatio(high)}`;
}

/**
 * Sizes for people: `64 KiB`, or a range `1 B–16 KiB` (postgres: `SELECT 1–1 lookup`).
 * @param {{ size_bytes: number }[]} run in order
 * @param {SizeWords} size a size in the workload's words
 */
function sizeSpan(run, size) {
  return run.length === 1 ? size(run[0].size_bytes) : `${size(run[0].size_bytes)}–${size(run[run.length - 1].size_bytes)}`;
}

/**
 * What differs most beneath the ratios of a run, per mechanism figure: "UDS makes 3.10× the client write calls per
 * chunk of TCP" (with the sizes, where not every size of the run); empty when none was found.
 * @param {SizeVerdict[]} run
 * @param {string} label the transport against TCP, for people ('UDS')
 * @param {SizeWords} size
 */
function describeMechanisms(run, label, size) {
  /** @type {Map<string, { label: string, sizes: SizeVerdict[], ratios: number[] }>} */
  const byMetric = new Map();
  for (const size of run) {
    const m = size.mechanism;
    if (!m) continue;
    const entry = byMetric.get(m.metric) ?? { label: m.label, sizes: [], ratios: [] };
    entry.sizes.push(size);
    entry.ratios.push(m.ratio);
    byMetric.set(m.metric, entry);
  }
  const list = (/** @type {string[]} */ items) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);
  const clauses = [...byMetric.values()].map((e, i) => `${i === 0 ? `${label} makes ` : ''}${span(e.ratios)}× the ${e.label}${i === 0 ? ' of TCP' : ''}${e.sizes.length === run.length ? '' : ` at ${list(e.sizes.map((s) => size(s.size_bytes)))}`}`);
  return clauses.join('; ');
}

/**
 * @param {SizeVerdict[]} run sizes of one verdict, in order
 * @param {Verdict} verdict
 * @param {{ label: string }} figure
 * @param {string} label the transport against TCP, for people ('UDS')
 * @param {string} single what to do where one run was measured (SINGLE_RUN unless the sweep planned more)
 * @param {SizeWords} size
 */
function describeRun(run, verdict, figure, label, single, size) {
  const sizes = sizeSpan(run, size);
  const ratios = /** @type {Ratio[]} */ (run.map((s) => s.ratio).filter(Boolean));
  const one = ratios.length === 1 ? ratios[0] : undefined;
  const ci = (/** @type {Ratio} */ r) => `95 % CI ${formatRatio(/** @type {number} */ (r.low))}–${formatRatio(/** @type {number} */ (r.high))}`;
  switch (verdict) {
    case 'above':
    case 'below': {
      const mechanisms = describeMechanisms(run, label, size);
      return `${label} gives ${span(ratios.map((r) => r.value))}× the ${figure.label} of TCP at ${sizes} (${one ? ci(one) : `every 95 % CI ${verdict} 1`}${mechanisms ? `; most different: ${mechanisms}` : ''})`;
    }
    case 'same': {
      const worst = Math.max(...ratios.map((r) => largestDifference(/** @type {{ low: number, high: number }} */ (r))));
      return `no difference larger than ${percentUp(worst)} % at ${sizes}${one ? ` (${ci(one)})` : ''}`;
    }
    case 'unclear': {
      const worst = ratios.reduce((a, b) => (largestDifference(/** @type {any} */ (a)) >= largestDifference(/** @type {any} */ (b)) ? a : b));
      return `undecided at ${sizes} (${one ? '' : 'widest '}${ci(worst)}: more runs would narrow it)`;
    }
    case 'single':
      return `one run only at ${sizes}: ${label} ${span(ratios.map((r) => r.value))}× TCP, no confidence interval (${single})`;
    default:
      return `no comparison at ${sizes} (no run in which both transports succeeded)`;
  }
}

/**
 * A ratio to TCP as a share saved or added: `saved 6 % of the resp p99 µs`, `gave 12 % more msgs/s`; with its interval
 * where given: `saved 6 % (95 % CI 2–10 %) of …`.
 * @param {import('../workloads/workload.js').Figure} figure
 * @param {number} r
 * @param {Ratio} [ci]
 */
export function shareWords(figure, r, ci) {
  const pct = (/** @type {number} */ v) => Math.abs((1 - v) * 100).toFixed(0);
  const bounds = ci?.low != null && ci.high != null ? [ci.low, ci.high].map((v) => (r <= 1 ? 1 - v : v - 1) * 100).sort((a, b) => a - b) : null;
  const within = bounds ? ` (95 % CI ${bounds[0].toFixed(0)}–${bounds[1].toFixed(0)} %)` : '';
  if (figure.better === 'lower') return r <= 1 ? `saved ${pct(r)} %${within} of the ${figure.short}` : `added ${pct(r)} %${within} to the ${figure.short}`;
  return r >= 1 ? `gave ${pct(r)} %${within} more ${figure.short}` : `gave ${pct(r)} %${within} less ${figure.short}`;
}

/**
 * The server's own work per request, for people: `200 µs of server work`, `1 ms of server wait`, or both; null: none.
 * @param {{ serverWorkMs?: number | null, serverDelayMs?: number | null } | undefined} spec a sweep's
 */
export function workOf(spec) {
  const parts = [spec?.serverWorkMs == null ? '' : `${+(spec.serverWorkMs * 1000).toFixed(3)} µs of server work`, spec?.serverDelayMs == null ? '' : `${spec.serverDelayMs} ms of server wait`].filter(Boolean);
  return parts.length ? parts.join(' and ') : null;
}

/**
 * What a transport saved against TCP with the server's own work per request (--server-work, --server-delay), size
 * by size: the primary figure's and the server CPU's ratios as shares with their intervals.
 * @param {string} work workOf()
 * @param {{ size_bytes: number, shares: { figure: import('../workloads/workload.js').Figure, ratio: Ratio | null }[] }[]} sizes
 * @param {string} label the transport against TCP, for people
 * @param {SizeWords} size a size in the workload's words
 */
export function workVerdict(work, sizes, label, size) {
  const said = sizes.map((s) => ({ size: size(s.size_bytes), words: s.shares.filter((x) => x.ratio).map((x) => shareWords(x.figure, /** @type {Ratio} */ (x.ratio).value, /** @type {Ratio} */ (x.ratio))) })).filter((s) => s.words.length);
  return said.length ? `With ${work} per request, ${label} ${said.map((s) => `${s.words.join(' and ')} of TCP at ${s.size}`).join('; ')}.` : '';
}

/**
 * What one transport's ratios against TCP say, size by size, in words (no head, no full stop).
 * @param {SizeVerdict[]} sizes in order
 * @param {{ label: string }} figure the primary figure
 * @param {string} label the transport against TCP, for people
 * @param {string} single what to do where one run was measured
 * @param {SizeWords} size
 */
function verdictBody(sizes, figure, label, single, size) {
  /** @type {{ verdict: Verdict, sizes: SizeVerdict[] }[]} */
  const runs = [];
  for (const size of sizes) {
    const verdict = classify(size.ratio);
    const last = runs[runs.length - 1];
    if (last && last.verdict === verdict) last.sizes.push(size);
    else runs.push({ verdict, sizes: [size] });
  }
  return runs.map((r) => describeRun(r.sizes, r.verdict, figure, label, single, size)).join('; ');
}

/**
 * What one transport measured alone says: its figure was measured, and nothing is compared (no TCP baseline; or
 * TCP, the baseline, with nothing measured against it).
 * @param {string} transport
 * @param {{ label: string }} figure the primary figure
 */
export function aloneWords(transport, figure) {
  const why = transport === BASELINE ? 'TCP is the baseline, and no other transport was measured against it' : 'there is no TCP baseline to compare it with';
  return `its ${figure.label} measured, nothing compared (${why})`;
}

/** What to do where one run was measured and one was planned. */
const SINGLE_RUN = 'use --runs 2 or more';

/**
 * What to do where a group has one run: more --runs where the sweep planned one, else what kept the others from being
 * measured: the sweep stopped (resume it) or they failed (measure them again).
 * @param {{ runs: number | null, stopped: boolean, retry: string }} sweep runs: planned (meta.json spec.runs);
 *   stopped: interrupted or killed; retry: the command that measures failed trials again
 */
export function singleRunWords({ runs, stopped, retry }) {
  if (runs === null || runs < 2) return SINGLE_RUN;
  return stopped ? `${runs} runs planned: the sweep stopped before the others; resume it, as said below` : `${runs} runs planned, the others failed: ${retry} measures them again`;
}

/**
 * One line in plain words for one depth: UDS against TCP, then each other transport against TCP; or, where one
 * transport was measured alone, what it measured and that nothing is compared.
 * @param {{ depth: number, workload?: string, node?: string | null, sizes: SizeVerdict[], others?: { label: string, sizes: SizeVerdict[] }[],
 *   alone?: { transport: string, sizes: { size_bytes: number, measured: boolean }[] } }} section
 *   node: its Node version, named where a sweep measured several; sizes: UDS/TCP (none: a sweep without UDS); alone: the one transport measured, measured: a successful trial at that size
 * @param {{ label: string }} figure the primary figure
 * @param {{ workloadLabel?: boolean, single?: string }} [options] workloadLabel: name the workload too (several in one sweep);
 *   single: what to do where one run was measured, when the sweep planned more (singleRunWords)
 */
export function toVerdict(section, figure, { workloadLabel = false, single = SINGLE_RUN } = {}) {
  const head = `${workloadLabel && section.workload ? `${section.workload} ` : ''}${section.node ? `Node ${section.node}, ` : ''}${depthLabel(section.workload, section.depth)}`;
  const size = (/** @type {number} */ n) => sizeLabel(section.workload, n);
  if (section.alone) {
    const { transport, sizes } = section.alone;
    const label = labelOf(transport);
    const measured = sizes.filter((s) => s.measured);
    const failed = sizes.filter((s) => !s.measured).map((s) => size(s.size_bytes));
    if (measured.length === 0) return `${head}: ${label} alone: no successful trial, nothing measured.`;
    return `${head}: ${label} alone at ${sizeSpan(measured, size)}: ${aloneWords(transport, figure)}${failed.length ? `; no successful trial at ${failed.join(', ')}` : ''}.`;
  }
  const others = (section.others ?? []).filter((o) => o.sizes.length).map((o) => `${o.label} against TCP: ${verdictBody(o.sizes, figure, o.label, single, size)}.`);
  if (section.sizes.length === 0) return others.length ? `${head}: ${others.join(' ')}` : `${head}: nothing measured.`;
  return [`${head}: ${verdictBody(section.sizes, figure, labelOf(HEADLINE), single, size)}.`, ...others].join(' ');
}
