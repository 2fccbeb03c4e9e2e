/**
 * Summary of a sweep's trial rows: the rows of summary.csv (docs/results.md#summarycsv), and the summary for people. Pure.
 */
import { isOpenLoop, missedRate } from '../workloads/rate.js';
import { groupRows, logsByRun, ratioIntervals } from './ratios.js';
import { compareNodeVersions, isVersionComparison } from './versions.js';
import { describe, quantile } from './describe.js';
import { orderVersions } from '../core/node-executables.js';
import { formatPercent } from '../core/units.js';
import { BASELINE, HEADLINE, labelOf, orderTransports, ratioOf, ratioTransport, ratiosOf } from '../transports/index.js';
import { depthLabel, sizeLabel, workloadOf } from '../workloads/index.js';

/**
 * The figures summarised for a workload's rows, the primary first.
 * @param {string} workload
 */
const figuresOf = (workload) => Object.keys(workloadOf(workload).summary);
export const SUMMARY_COLUMNS = ['workload', 'node_version', 'size_bytes', 'depth', 'transport', 'metric', 'unit', 'n', 'mean', 'geomean', 'median', 'sd', 'cv', 'min', 'max', 'ci95_low', 'ci95_high', 'ci95_half_width_pct', 'ci95_df', 'outliers', 'significant', 'precision_met'];
/** Without a target precision, a UDS/TCP interval wider than this (relative half-width) gets a warning. */
export const WIDE_CI = 0.05;

/** @param {number[]} values */
function countOutliers(values) {
  if (values.length < 3) return 0;
  const median = quantile([...values].sort((x, y) => x - y), 0.5);
  const mad = quantile(values.map((v) => Math.abs(v - median)).sort((x, y) => x - y), 0.5);
  if (mad === 0) return 0;
  return values.filter((v) => Math.abs((0.6745 * (v - median)) / mad) > 3.5).length;
}

/**
 * A summary row of a ratio (UDS/TCP, or one Node version against another).
 * @param {Record<string, any>} base workload, node_version, size_bytes, depth
 * @param {string} transport
 * @param {string} metric
 * @param {import('./ratios.js').RatioInterval} r
 * @param {'yes' | 'no' | null} precisionMet
 */
function ratioRow(base, transport, metric, r, precisionMet) {
  return {
    ...base, transport, metric, unit: 'ratio', n: r.n,
    mean: r.mean, geomean: r.mean, median: r.median, sd: null, cv: null, min: r.min, max: r.max,
    ci95_low: r.low, ci95_high: r.high,
    ci95_half_width_pct: r.halfWidth === null ? null : r.halfWidth * 100,
    ci95_df: r.df,
    outliers: countOutliers(r.logs),
    significant: r.low === null || r.high === null ? null : (r.low > 1 || r.high < 1 ? 'yes' : 'no'),
    precision_met: precisionMet,
  };
}

/**
 * @param {Record<string, any>[]} rows trial rows (run, order, and the record)
 * @param {{ precision?: number | null, moderate?: boolean, nodes?: string[] }} [options] the target precision, to mark ratio rows; moderate: false gives each group's UDS/TCP interval from its runs alone;
 *   nodes: the Node versions in order, the first the baseline of comparisons (default: oldest first)
 * @returns {Record<string, any>[]} in SUMMARY_COLUMNS
 */
export function summarize(rows, { precision = null, moderate = true, nodes } = {}) {
  const out = [];
  const groups = groupRows(rows.filter((r) => r.status === 'ok'), nodes);
  const ratioRows = ratioRowsByGroup(groups, { precision, moderate });
  for (const group of groups) {
    const base = baseOf(group);
    const { summary } = workloadOf(group.workload);
    for (const transport of orderTransports(group.rows.map((r) => String(r.transport)))) {
      const trials = group.rows.filter((r) => r.transport === transport);
      for (const [metric, { unit }] of Object.entries(summary)) {
        const values = trials.map((r) => r[metric]).filter((v) => typeof v === 'number' && Number.isFinite(v));
        if (values.length === 0) continue;
        const s = describe(values);
        const positive = values.every((v) => v > 0);
        const logs = positive ? describe(values.map(Math.log)) : undefined;
        const ci = values.length > 1 && logs !== undefined;
        out.push({
          ...base, transport, metric, unit, n: values.length,
          mean: s.mean,
          geomean: logs ? Math.exp(logs.mean) : null,
          median: s.p50,
          sd: values.length > 1 ? s.sd : null,
          cv: values.length > 1 && s.mean !== 0 ? s.sd / s.mean : null,
          min: s.min,
          max: s.max,
          ci95_low: ci ? Math.exp(logs.mean - logs.moe) : null,
          ci95_high: ci ? Math.exp(logs.mean + logs.moe) : null,
          ci95_half_width_pct: ci ? (Math.exp(logs.moe) - 1) * 100 : null,
          ci95_df: ci ? values.length - 1 : null,
          outliers: countOutliers(values),
          significant: null,
          precision_met: null,
        });
      }
    }
    out.push(...(ratioRows.get(group) ?? []));
  }
  // each Node version against the baseline, by version, then group
  const comparisons = compareNodeVersions(groups, { nodes, metrics: figuresOf, moderate });
  const order = orderVersions(groups.map((g) => g.node_version), nodes);
  comparisons.sort((a, b) => order.indexOf(a.node) - order.indexOf(b.node) || a.size_bytes - b.size_bytes || a.depth - b.depth);
  for (const c of comparisons) {
    out.push(ratioRow({ workload: c.workload, node_version: `${c.node}/${c.base}`, size_bytes: c.size_bytes, depth: c.depth }, c.transport, c.metric, c.interval, null));
  }
  return out;
}

/** @param {ReturnType<typeof groupRows>[number]} g */
const baseOf = (g) => ({ workload: g.workload, node_version: g.node_version, size_bytes: g.size_bytes, depth: g.depth });

/**
 * The ratio rows of each group: every other transport against TCP (uds/tcp first), each figure, each (transport,
 * figure)'s variances moderated across the groups of one workload.
 * @param {ReturnType<typeof groupRows>} groups
 * @param {{ precision: number | null, moderate: boolean }} options moderate false: each group on its own
 * @returns {Map<object, Record<string, any>[]>} groups with no paired run have none
 */
function ratioRowsByGroup(groups, { precision, moderate }) {
  /** @type {Map<object, Record<string, any>[]>} */
  const byGroup = new Map(groups.map((g) => [g, []]));
  for (const workload of new Set(groups.map((g) => g.workload))) {
    const same = groups.filter((g) => g.workload === workload);
    const { primary } = workloadOf(workload);
    for (const cell of ratiosOf(same.flatMap((g) => g.rows.map((r) => String(r.transport))))) {
      for (const metric of figuresOf(workload)) {
        const logs = same.map((g) => [...logsByRun(g.rows, cell, metric).values()]);
        const { intervals } = ratioIntervals(logs, { moderate });
        same.forEach((g, i) => {
          const r = intervals[i];
          if (!r) return;
          const met = precision === null || metric !== primary ? null : (r.halfWidth !== null && r.halfWidth <= precision ? 'yes' : 'no');
          byGroup.get(g)?.push(ratioRow(baseOf(g), cell, metric, r, met));
        });
      }
    }
  }
  return byGroup;
}

/**
 * Whether a summary's intervals were moderated (some has more degrees of freedom than its runs alone give).
 * @param {Record<string, any>[]} summary rows from summarize(), or read back from summary.csv
 */
export function isModerated(summary) {
  return summary.some((r) => ratioTransport(r.transport) !== null && typeof r.ci95_df === 'number' && r.ci95_df !== r.n - 1);
}

/** Above this client event-loop utilisation, the client may be what limits the figures. */
export const CLIENT_ELU_WARN = 0.9;

/**
 * Warnings when the client may set the pace: rows whose client event loop was busy over CLIENT_ELU_WARN of the time.
 * @param {Record<string, any>[]} rows trial rows
 * @param {string} [where] where the figure is, for people
 */
export function clientWarnings(rows, where = 'client_elu in trials.csv') {
  // an open-loop row (it has a limit) is judged by its pacer's schedule lag instead: that pacer spins by design
  const open = rows.filter((r) => r.status === 'ok' && isOpenLoop(r));
  const missed = open.filter(missedRate);
  const ok = rows.filter((r) => r.status === 'ok' && typeof r.client_elu === 'number' && !isOpenLoop(r));
  const busy = ok.filter((r) => r.client_elu > CLIENT_ELU_WARN);
  const worst = busy.reduce((m, r) => Math.max(m, r.client_elu), -Infinity);
  return [
    ...(busy.length ? [`in ${busy.length} of ${ok.length} trial rows the client's event loop was busy over ${CLIENT_ELU_WARN * 100} % of the measured time (at most ${(worst * 100).toFixed(0)} %): the client may be the bottleneck there, not the transport (${where})`] : []),
    ...(missed.length ? [`in ${missed.length} of ${open.length} open-loop rows the offered rate was not kept (limit ${[...new Set(missed.map((r) => r.limit))].join(', ')}: ${missed[0].limit_reason}): their response times are those of a saturated server or a late pacer, not of the transport at that rate`] : []),
  ];
}

/**
 * A note when read and write calls could not be counted: ok rows whose reads or writes per unit are empty where
 * context switches are not (/proc/PID/io is Linux's, and needs its task I/O accounting).
 * @param {Record<string, any>[]} rows trial rows
 */
export function counterWarnings(rows) {
  const ok = rows.filter((r) => r.status === 'ok');
  const missing = (/** @type {unknown} */ v) => v === null || v === '' || v === undefined;
  // switches counted, calls not: rows of results written before these figures have neither. Write
  // calls only: read calls are empty where the channel reads with recvmsg (ipc-json, ipc-advanced)
  const empty = ok.filter((r) => Object.keys(r).some((k) => {
    const m = /^(client|server)_writes_per_(\w+)$/.exec(k);
    return m !== null && missing(r[k]) && !missing(r[`${m[1]}_vcsw_per_${m[2]}`]);
  }));
  if (!empty.length) return [];
  return [`read and write calls per unit are empty in ${empty.length} of ${ok.length} trial rows: they come from /proc/PID/io, which this system does not give (Linux with task I/O accounting has it); context switches are counted everywhere`];
}

/**
 * Trials whose lanes were measured under unequal conditions (lib/trial/lane-check.js
 * wrote a `lane_check` note on the lane that differs from TCP's): one warning naming the lanes.
 * @param {Record<string, any>[]} rows trial rows
 */
export function laneWarnings(rows) {
  const flagged = rows.filter((r) => r.status === 'ok' && typeof r.lane_check === 'string' && r.lane_check !== '');
  if (!flagged.length) return [];
  /** @type {Map<string, number>} */
  const byLane = new Map();
  for (const r of flagged) byLane.set(String(r.transport), (byLane.get(String(r.transport)) ?? 0) + 1);
  const lanes = [...byLane].map(([t, n]) => `${t} in ${n}`).join(', ');
  const placed = flagged.some((r) => /on one CPU/.test(r.lane_check));
  const why = placed
    ? 'where a lane\'s ends shared a CPU more or less often than TCP\'s, its ratio compares placements as well as transports: --pin split (the default) or same places every lane alike'
    : 'the ends ran on CPUs of their own alike, so the client was preempted by its own threads (such as garbage collection) or by other processes: part of that transport\'s cost here, or a busy machine';
  return [`${flagged.length} trial lane(s) ran under unequal conditions against TCP's (placement or preemptions beyond the bounds of docs/method.md): ${lanes}; ${why}. First: ${flagged[0].transport} at ${sizeLabel(flagged[0].workload, flagged[0].size_bytes)} ${depthLabel(flagged[0].workload, flagged[0].depth)}, ${flagged[0].lane_check}`];
}

/** A ratio in a column of six: `  1.40`. @param {number | null} v */
const fmt = (v) => (v === null ? '   -  ' : v.toFixed(2).padStart(6));
/** A figure for people: whole from 100, else 3 significant digits. @param {number} g */
const num = (g) => String(g >= 100 ? Math.round(g) : +g.toPrecision(3));

/**
 * The summary for people: one line per (size, depth), with the legends of its marks (its warnings are the report's).
 * @param {Record<string, any>[]} summary rows from summarize()
 * @param {{ precision?: number | null, workload?: string }} [options] workload: the sweep's, for a summary with no rows
 */
export function toSummaryText(summary, { precision = null, workload = undefined } = {}) {
  const lines = [];
  const w = workloadOf(summary[0]?.workload ?? workload);
  const primary = w.primary;
  // the figure by its short label, as summary.md's tables head it: 'msgs/s', 'resp p99 µs' (not the bare unit 'us')
  const figure = w.summary[primary].short;
  const [second] = Object.keys(w.summary).filter((m) => m !== primary);
  const own = summary.filter((r) => !isVersionComparison(r));
  const cells = orderTransports(/** @type {string[]} */ (own.map((r) => ratioTransport(r.transport)).filter((t) => t !== null))).map(ratioOf); // uds/tcp first
  const ratios = own.filter((r) => cells.includes(r.transport) && r.metric === primary);
  const versions = [...new Set(own.map((r) => r.node_version ?? null))];
  const several = versions.length > 1;
  const limit = precision ?? WIDE_CI;
  const percent = (/** @type {number | null} */ v) => (v === null ? '-' : `±${formatPercent(v, limit * 100)}%`);
  // columns as wide as their widest cell (`1 lookup connections 1`, `±3943.0%`), so each figure ends under its heading
  const pctWidth = Math.max(6, ...ratios.map((r) => percent(r.ci95_half_width_pct).length));
  const pct = (/** @type {number | null} */ v) => percent(v).padStart(pctWidth);
  const secondLabel = w.summary[second].short.replace(/ (µs|us|s)\b.*$/, '');
  /** a group for people: `64B depth 1`, with its Node version first when there are several @param {Record<string, any>} r */
  const groupLabel = (r) => `${several && r.node_version ? `${r.node_version} ` : ''}${sizeLabel(r.workload, r.size_bytes)} ${depthLabel(r.workload, r.depth)}`;
  const labelWidth = Math.max(several ? 30 : 20, ...own.map((r) => groupLabel(r).length));
  const keyOf = (/** @type {Record<string, any>} */ s) => `${s.node_version}|${s.size_bytes}|${s.depth}|${s.transport}|${s.metric}`;
  const index = new Map([...own].reverse().map((s) => [keyOf(s), s])); // the first row of a key wins
  // one transport measured alone (no ratio cell): its figure per group, and that nothing is compared
  const alone = orderTransports(/** @type {string[]} */ (own.map((r) => r.transport).filter((t) => ratioTransport(t) === null)));
  if (!cells.length && alone.length === 1) {
    const [transport] = alone;
    lines.push(`${labelOf(transport)} ${figure}, measured alone (geometric mean of runs, 95 % CI); nothing compared: ${transport === BASELINE ? 'TCP is the baseline, and no other transport was measured' : `there is no TCP baseline${w.columns.includes('limit') ? ' (no TCP row that kept its rate: the others are left out)' : ''}`}`);
    for (const r of own.filter((x) => x.transport === transport && x.metric === primary)) {
      lines.push(`  ${groupLabel(r).padEnd(labelWidth)} ${num(r.geomean ?? r.mean).padStart(10)}${r.ci95_low === null ? ' (n=1, no CI)' : ` [${num(r.ci95_low)}, ${num(r.ci95_high)}] n=${r.n}`}`);
    }
  }
  // a block of lines per transport against TCP, UDS/TCP first
  // no group compared (in open loop: no run in which both kept the rate): a line, not an empty table
  if (!cells.length && alone.length !== 1) lines.push(`${labelOf(ratioOf(HEADLINE))} ${figure}: no group compared (the verdicts below say why)`);
  cells.forEach((cell, k) => {
    const transport = /** @type {string} */ (ratioTransport(cell));
    const label = labelOf(transport);
    if (k > 0) lines.push('');
    const tcpWidth = Math.max(10, `TCP ${figure}`.length);
    lines.push(`${`${labelOf(cell)} ${figure} (geometric mean of paired runs, 95 % CI)`.padEnd(labelWidth + pctWidth + 39)}${`TCP ${figure}`.padStart(tcpWidth)}   ${`${label} ${figure}`.padStart(10)}   ${secondLabel} ${labelOf(cell)}`);
    for (const r of ratios.filter((x) => x.transport === cell)) {
      const pick = (/** @type {string} */ t, /** @type {string} */ metric) => index.get(keyOf({ ...r, transport: t, metric }));
      const group = groupLabel(r).padEnd(labelWidth);
      const ci = r.ci95_low === null ? ' (n=1, no CI)'.padEnd(pctWidth + 24) : ` [${fmt(r.ci95_low)}, ${fmt(r.ci95_high)}] ${pct(r.ci95_half_width_pct)} n=${String(r.n).padEnd(3)}`;
      const star = r.significant === 'yes' ? ' *' : '  ';
      const short = r.precision_met === 'no' && r.ci95_low !== null ? '!' : ' '; // one run: '(n=1, no CI)' says it
      const rtt = pick(cell, second);
      const mean = (/** @type {string} */ t) => num(pick(t, primary)?.geomean ?? 0).padStart(10);
      lines.push(`  ${group} ×${fmt(r.mean)}${ci}${star}${short}  ${mean(BASELINE).padStart(tcpWidth)}   ${mean(transport).padStart(label.length + figure.length + 1)}   ×${fmt(rtt?.mean ?? null)}`);
    }
  });
  if (isModerated(ratios)) lines.push(`  CIs: Student t over runs, each group's variance moderated across the ${ratios.filter((r) => r.transport === cells[0]).length} groups (empirical Bayes; degrees of freedom in summary.csv ci95_df).`);
  // the marks' legends only: the warnings (wide intervals and what to do, comparisons significant by chance, outliers)
  // are the report's (lib/report/findings.js), which a sweep prints after its verdicts, as `report DIR` does
  if (ratios.some((r) => r.significant === 'yes')) lines.push('  * the 95 % CI excludes 1.');
  if (ratios.some((r) => r.precision_met === 'no' && r.ci95_low !== null)) lines.push(`  ! wider than the ±${+(limit * 100).toFixed(3)} % target of --precision.`);
  lines.push(...versionLines(summary, primary, figure));
  for (const version of versions) {
    const mine = own.filter((r) => (r.node_version ?? null) === version);
    lines.push(...(w.summaryLines?.(mine) ?? []).map((line) => (several && version ? `${version}: ${line}` : line)));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Each Node version against the baseline, a line per group: ratios to TCP as ratios of ratios, the primary figure, 95 % CIs.
 * @param {Record<string, any>[]} summary
 * @param {string} primary
 * @param {string} figure the primary figure's short label
 */
function versionLines(summary, primary, figure) {
  const rows = summary.filter((r) => isVersionComparison(r) && r.metric === primary);
  if (!rows.length) return [];
  const ratios = orderTransports(/** @type {string[]} */ (rows.map((r) => ratioTransport(r.transport)).filter((t) => t !== null))).map(ratioOf);
  const cells = [...ratios, ...orderTransports(rows.map((r) => String(r.transport)).filter((t) => ratioTransport(t) === null))]; // uds/tcp first
  /** @param {Record<string, any> | undefined} r */
  const cell = (r) => (!r ? '       -                  ' : `×${fmt(r.mean)}${r.ci95_low === null ? ' (n=1, no CI)     ' : ` [${fmt(r.ci95_low)}, ${fmt(r.ci95_high)}]`}${r.significant === 'yes' ? ' *' : '  '}`);
  const base = String(rows[0].node_version).split('/')[1];
  const groupOf = (/** @type {Record<string, any>} */ r) => `${r.node_version} ${sizeLabel(r.workload, r.size_bytes)} ${depthLabel(r.workload, r.depth)}`;
  /** @type {Map<string, Record<string, any>[]>} the rows of each (version, size, depth), in the summary's order */
  const groups = new Map();
  for (const r of rows) groups.set(groupOf(r), [...(groups.get(groupOf(r)) ?? []), r]);
  const width = Math.max(...[...groups.keys()].map((g) => g.length)) + 2;
  const lines = ['', `Node versions against ${base} (the first given), runs paired (per run log difference), 95 % CI:`];
  lines.push(`  ${''.padEnd(width)}${cells.map((c, i) => { const title = ratioTransport(c) === null ? `${labelOf(c)} ${figure}` : `${labelOf(c)} ratio`; return i < cells.length - 1 ? title.padEnd(29) : title; }).join('')}`);
  for (const [group, mine] of groups) {
    lines.push(`  ${group.padEnd(width)}${cells.map((c) => cell(mine.find((r) => r.transport === c))).join('   ')}`.trimEnd());
  }
  const meaning = ratios.length ? ` (${ratios.length === 1 ? `${labelOf(ratios[0])}: ${labelOf(ratioTransport(ratios[0]))}` : 'a ratio to TCP: that transport'} gains more over TCP there)` : '';
  lines.push(`  ${rows.some((r) => r.significant === 'yes') ? '* the 95 % CI excludes 1. ' : ''}Above 1: higher under that version than under ${base}${meaning}.`);
  return lines;
}
