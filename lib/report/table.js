/**
 * A people-facing table of trial records, and each transport against TCP (UDS/TCP first). Pure: returns a string, in
 * the colours of the Chalk passed in; cells and errors are printable() before they are padded.
 */
import { Chalk } from 'chalk';
import { formatSize } from '../core/units.js';
import { ratioInterval } from '../stats/ratios.js';
import { quantile } from '../stats/describe.js';
import { printable } from '../core/text.js';
import { WORKLOADS, depthLabel, sizeLabel, workloadOf } from '../workloads/index.js';
import { serverCpuMetric } from '../workloads/figures.js';
import { missedRate } from '../workloads/rate.js';
import { BASELINE, labelOf, orderTransports } from '../transports/index.js';
import { MIN_PER_UNIT, aloneWords, shareWords } from './verdict.js';

/** No colour: the default of every formatter here. */
export const plain = new Chalk({ level: 0 });

/**
 * Digits for people: 3 significant, thousands as k/M; never used in CSV.
 * @param {number | string | null} value
 */
export function human(value) {
  if (value === null || value === '' || typeof value === 'string') return value === null ? '-' : String(value);
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (Number.isInteger(value) && abs < 1e4) return String(value);
  if (abs >= 1e7) return `${(value / 1e6).toFixed(1)}M`;
  if (abs >= 1e4) return `${(value / 1e3).toFixed(1)}k`;
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/**
 * A table of cells as aligned lines for the terminal, its cells printable().
 * @param {{ columns: Pick<import('./depth-table.js').Column, 'title' | 'numeric'>[], rows: string[][] }} table
 * @param {(text: string) => string} head how the header line looks (chalk.dim …)
 */
export function textTable({ columns, rows: cells }, head) {
  const rows = cells.map((r) => r.map(printable));
  const widths = columns.map((c, i) => Math.max(c.title.length, ...rows.map((r) => r[i].length)));
  const line = (/** @type {string[]} */ cells) => cells.map((cell, i) => (columns[i].numeric ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ').trimEnd();
  return [head(line(columns.map((c) => c.title))), ...rows.map(line)];
}

/**
 * @param {import('../trial/record.js').TrialRecord[]} records
 */
export function toTable(records, { chalk = plain } = {}) {
  const w = workloadOf(records[0]?.workload);
  /** @type {[string, (r: import('../trial/record.js').TrialRecord) => string][]} who, then the workload's `table` figures, then status */
  const COLUMNS = [
    ['transport', (r) => String(r.transport)],
    ['size', (r) => (r.size_bytes === null ? '-' : sizeLabel(w.name, Number(r.size_bytes)))],
    [w.axes.depth.flag.slice(2), (r) => human(r.depth)],
    ...w.table.map(([title, column]) => /** @type {[string, (r: import('../trial/record.js').TrialRecord) => string]} */ ([title, (r) => human(r[column])])),
    ['status', (r) => String(r.status)],
  ];
  const columns = COLUMNS.map(([title], i) => ({ title, numeric: i >= 2 }));
  const [head, ...lines] = textTable({ columns, rows: records.map((r) => COLUMNS.map(([, cell]) => cell(r))) }, chalk.bold);
  const out = [head];
  records.forEach((r, i) => {
    out.push(r.status === 'ok' ? lines[i] : chalk.red(lines[i]));
    if (r.status !== 'ok') out.push(chalk.red(`  ${printable(r.error)}`));
  });
  return `${out.join('\n')}\n`;
}

/**
 * Mean of a numeric field over ok records.
 * @param {import('../trial/record.js').TrialRecord[]} records
 * @param {string} field
 */
function meanOf(records, field) {
  const values = records.filter((r) => r.status === 'ok' && typeof r[field] === 'number').map((r) => Number(r[field]));
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN;
}

/**
 * One line per (size, depth) and transport against TCP (UDS first): how many times TCP's figures it gives, with the
 * interval of the primary figure's ratio when one is given.
 * @param {import('../trial/record.js').TrialRecord[]} records
 * @param {{ chalk?: import('chalk').ChalkInstance, ratios?: Record<string, { interval: import('../stats/ratios.js').RatioInterval, basis: string }>, workUs?: number | null }} [options]
 *   ratios: each transport's interval against TCP, by name; workUs: the server's own work per request (run --server-work)
 */
export function toComparison(records, { chalk = plain, ratios = {}, workUs = null } = {}) {
  /** @type {Map<string, import('../trial/record.js').TrialRecord[]>} */
  const groups = new Map();
  for (const r of records) {
    const key = `${r.workload}|${r.size_bytes}|${r.depth}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const lines = [];
  for (const group of groups.values()) {
    const measured = orderTransports(group.map((r) => String(r.transport)));
    const w = workloadOf(group[0].workload);
    const head = `${sizeLabel(w.name, Number(group[0].size_bytes))} ${w.axes.depth.flag.slice(2)} ${printable(group[0].depth)}`;
    if (measured.length === 1) {
      // one transport alone: what it measured, and that nothing is compared (nothing at all if it failed)
      if (Number.isFinite(meanOf(group, w.primary))) lines.push(`${head}: ${labelOf(measured[0])} alone: ${aloneWords(measured[0], w.summary[w.primary])}`);
      continue;
    }
    const tcp = group.filter((r) => r.transport === BASELINE);
    for (const transport of measured.filter((t) => t !== BASELINE)) {
      const mine = group.filter((r) => r.transport === transport);
      const ratio = (/** @type {string} */ field) => meanOf(mine, field) / meanOf(tcp, field);
      if (!Number.isFinite(ratio(w.primary))) continue;
      const n = Math.min(tcp.length, mine.length);
      const iv = ratios[transport]?.interval;
      const value = iv ? iv.mean : ratio(w.primary);
      const text = `${labelOf(transport)} ×${value.toFixed(2)} the ${w.summary[w.primary].short} of TCP${iv?.low != null && iv.high != null ? ` (95 % CI ${iv.low.toFixed(2)}–${iv.high.toFixed(2)}${iv.low > 1 || iv.high < 1 ? '' : ', not significant'})` : ''}`;
      // green where the transport does at least as well as TCP, by the figure's direction (resp p99 µs: lower is better)
      const better = w.summary[w.primary].better === 'lower' ? value <= 1 : value >= 1;
      const verdict = better ? chalk.green(text) : chalk.yellow(text);
      // an interval asked for but not had: one pair (one block each, or one paired run) gives none
      const basis = iv?.low != null ? chalk.dim(` [interval from ${ratios[transport].basis}]`) : iv ? chalk.dim(' (one pair of measurements: no interval; more blocks, --runs 3 or a sweep give one)')
        : n < 3 ? chalk.dim(` (${n} trial${n === 1 ? '' : 's'} each: run a sweep for a confidence interval)`) : '';
      const others = Object.entries(w.summary).filter(([m, f]) => m !== w.primary && !f.mechanism && Number.isFinite(ratio(m))).map(([m, f]) => `${f.short} ×${ratio(m).toFixed(2)}`);
      // of the mechanism figures, the one farthest from 1 (among those that happen often enough to matter)
      const mechanisms = Object.entries(w.summary).filter(([m, f]) => f.mechanism && ratio(m) > 0 && Number.isFinite(ratio(m)) && Math.max(meanOf(tcp, m), meanOf(mine, m)) >= MIN_PER_UNIT);
      const farthest = mechanisms.reduce((/** @type {[string, import('../workloads/workload.js').Figure] | undefined} */ a, b) => (a && Math.abs(Math.log(ratio(a[0]))) >= Math.abs(Math.log(ratio(b[0]))) ? a : b), undefined);
      if (farthest) others.push(`most different: ${farthest[1].short} ×${ratio(farthest[0]).toFixed(2)}`);
      lines.push(`${head}: ${verdict}; ${others.join(', ')}${basis}`);
      // with --server-work: the primary figure as above, the server's CPU from the same rows (those that kept their rate)
      const kept = (/** @type {Record<string, any>[]} */ rows) => rows.filter((r) => !missedRate(r));
      const cpu = /** @type {string} */ (serverCpuMetric(group[0].workload));
      const shares = [[w.primary, value], [cpu, meanOf(kept(mine), cpu) / meanOf(kept(tcp), cpu)]].filter(([, r]) => Number.isFinite(r));
      if (workUs !== null && shares.length) lines.push(`  with ${workUs} µs of server work per request, ${labelOf(transport)} ${shares.map(([m, r]) => shareWords(w.summary[m], Number(r))).join(' and ')} of TCP`);
    }
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/**
 * One line per group and command for people: each transport's median rps over the runs, and each against TCP's: the
 * geometric mean of its ratios paired by run with their Student-t 95 % interval (../stats/ratios.js), or with one
 * paired run the medians' ratio: `redis-benchmark 16 B depth 1 SET: tcp 18.3k rps, uds 25.1k rps (×1.37, 95 % CI
 * 1.21–1.55) (median of 3 runs)`.
 * @param {Record<string, any>[]} rows reference.csv's rows
 */
export function describeReference(rows) {
  const ok = rows.filter((r) => r.status === 'ok');
  /** @type {Map<string, Map<string, Map<string, number>>>} by group, transport and run */
  const groups = new Map();
  for (const r of ok) {
    // in the words of the workload whose reference client it is, as its summary says the group (16 B in flight 1)
    const workload = Object.values(WORKLOADS).find((w) => w.reference?.client === r.client)?.name;
    const key = `${r.client} ${workload ? sizeLabel(workload, Number(r.size_bytes)) : formatSize(Number(r.size_bytes))} ${workload ? depthLabel(workload, r.depth) : `depth ${r.depth}`} ${r.test}`;
    const byTransport = groups.get(key) ?? new Map();
    // a run of each Node version measured (sweep --node): each ran redis-benchmark after its own trial
    byTransport.set(r.transport, (byTransport.get(r.transport) ?? new Map()).set(`${r.run} ${r.node_version ?? ''}`, Number(r.rps)));
    groups.set(key, byTransport);
  }
  const median = (/** @type {number[]} */ xs) => quantile([...xs].sort((a, b) => a - b), 0.5);
  const rps = (/** @type {number} */ x) => (x >= 1000 ? `${(x / 1000).toFixed(1)}k` : x.toFixed(0));
  return [...groups].map(([key, byTransport]) => {
    const runsOfBase = byTransport.get(BASELINE);
    const base = runsOfBase ? median([...runsOfBase.values()]) : null;
    const parts = [...byTransport].sort(([a], [b]) => Number(b === BASELINE) - Number(a === BASELINE)).map(([transport, runs]) => {
      const m = median([...runs.values()]);
      if (!runsOfBase || base === null || transport === BASELINE) return `${transport} ${rps(m)} rps`;
      const logs = [...runs].filter(([run]) => runsOfBase.has(run)).map(([run, x]) => Math.log(x / /** @type {number} */ (runsOfBase.get(run))));
      const ci = logs.length ? ratioInterval(logs) : null;
      // the ratio the interval is about (the geometric mean of the paired runs'), where there is one
      return ci?.low != null && ci.high != null ? `${transport} ${rps(m)} rps (×${ci.mean.toFixed(2)}, 95 % CI ${ci.low.toFixed(2)}–${ci.high.toFixed(2)})` : `${transport} ${rps(m)} rps (×${(m / base).toFixed(2)})`;
    });
    return `${key}: ${parts.join(', ')} (median of ${Math.max(...[...byTransport.values()].map((runs) => runs.size))} runs)`;
  });
}
