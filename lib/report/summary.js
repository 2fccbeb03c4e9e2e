/**
 * Summary of a sweep's trial rows: per (size, depth, transport) the
 * distribution of each figure over runs, and per (size, depth) the UDS/TCP
 * ratio from runs where both trials succeeded (paired: they share the run's
 * drift), as a geometric mean of per-run ratios with a 95 % Student-t
 * confidence interval on the log scale. Statistics come from tinybench via
 * describe(). Outliers are flagged by the modified Z-score (median/MAD > 3.5),
 * never dropped. Pure: rows in, rows (and a string for people) out.
 */
import { describe, quantile } from '../stats.js';
import { formatSize } from '../units.js';

export const SUMMARY_METRICS = /** @type {const} */ (['msgs_per_s', 'rtt_p50_us', 'rtt_p99_us', 'client_cpu_us_per_msg', 'server_cpu_us_per_msg']);
export const SUMMARY_COLUMNS = ['workload', 'size_bytes', 'depth', 'transport', 'metric', 'n', 'mean', 'median', 'sd', 'cv_pct', 'min', 'max', 'ci95_low', 'ci95_high', 'outliers', 'significant'];
/** A coefficient of variation above this deserves a warning. */
export const CV_WARN_PCT = 5;

/**
 * @param {number[]} values
 */
function countOutliers(values) {
  if (values.length < 3) return 0;
  const median = quantile([...values].sort((x, y) => x - y), 0.5);
  const mad = quantile(values.map((v) => Math.abs(v - median)).sort((x, y) => x - y), 0.5);
  if (mad === 0) return 0;
  return values.filter((v) => Math.abs((0.6745 * (v - median)) / mad) > 3.5).length;
}

/**
 * @param {Record<string, any>[]} rows trial rows (run, order, and the record)
 */
export function summarize(rows) {
  const ok = rows.filter((r) => r.status === 'ok');
  /** @type {Map<string, Record<string, any>[]>} */
  const groups = new Map();
  for (const r of ok) {
    const key = `${r.workload}|${r.size_bytes}|${r.depth}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const out = [];
  const sortedKeys = [...groups.keys()].sort((a, b) => {
    const [, sa, da] = a.split('|').map(Number);
    const [, sb, db] = b.split('|').map(Number);
    return sa - sb || da - db;
  });
  for (const key of sortedKeys) {
    const group = /** @type {Record<string, any>[]} */ (groups.get(key));
    const { workload, size_bytes, depth } = group[0];
    const base = { workload, size_bytes: Number(size_bytes), depth: Number(depth) };
    for (const transport of ['tcp', 'uds']) {
      const trials = group.filter((r) => r.transport === transport);
      for (const metric of SUMMARY_METRICS) {
        const values = trials.map((r) => r[metric]).filter((v) => typeof v === 'number' && Number.isFinite(v));
        if (values.length === 0) continue;
        const s = describe(values);
        const ci = values.length > 1;
        out.push({ ...base, transport, metric, n: values.length, mean: s.mean, median: s.p50, sd: ci ? s.sd : null, cv_pct: ci && s.mean !== 0 ? (s.sd / s.mean) * 100 : null, min: s.min, max: s.max, ci95_low: ci ? s.mean - s.moe : null, ci95_high: ci ? s.mean + s.moe : null, outliers: countOutliers(values), significant: null });
      }
    }
    // paired ratios: the same run's UDS over TCP
    for (const metric of SUMMARY_METRICS) {
      const logs = [];
      for (const u of group.filter((r) => r.transport === 'uds')) {
        const t = group.find((r) => r.transport === 'tcp' && Number(r.run) === Number(u.run));
        if (t && u[metric] > 0 && t[metric] > 0) logs.push(Math.log(u[metric] / t[metric]));
      }
      if (logs.length === 0) continue;
      const s = describe(logs);
      const ci = logs.length > 1;
      const low = ci ? Math.exp(s.mean - s.moe) : null;
      const high = ci ? Math.exp(s.mean + s.moe) : null;
      out.push({ ...base, transport: 'uds/tcp', metric, n: logs.length, mean: Math.exp(s.mean), median: Math.exp(s.p50), sd: null, cv_pct: null, min: Math.exp(s.min), max: Math.exp(s.max), ci95_low: low, ci95_high: high, outliers: countOutliers(logs), significant: low === null || high === null ? null : (low > 1 || high < 1 ? 'yes' : 'no') });
    }
  }
  return out;
}

/**
 * The summary for people: one line per (size, depth), then warnings with remedies.
 * @param {Record<string, any>[]} summary rows from summarize()
 */
export function toSummaryText(summary) {
  const lines = [];
  const ratios = summary.filter((r) => r.transport === 'uds/tcp' && r.metric === 'msgs_per_s');
  const fmt = (/** @type {number | null} */ v) => (v === null ? '   -  ' : v.toFixed(2).padStart(6));
  lines.push('UDS/TCP msgs/s (geometric mean of paired runs, 95 % CI)   TCP msgs/s   UDS msgs/s   RTT p50 UDS/TCP');
  for (const r of ratios) {
    const pick = (/** @type {string} */ transport, /** @type {string} */ metric) => summary.find((s) => s.size_bytes === r.size_bytes && s.depth === r.depth && s.transport === transport && s.metric === metric);
    const label = `${formatSize(r.size_bytes)} depth ${r.depth}`.padEnd(20);
    const ci = r.ci95_low === null ? ' (n=1, no CI)            ' : ` [${fmt(r.ci95_low)}, ${fmt(r.ci95_high)}] n=${String(r.n).padEnd(3)}`;
    const star = r.significant === 'yes' ? ' *' : '  ';
    const rtt = pick('uds/tcp', 'rtt_p50_us');
    lines.push(`  ${label} ×${fmt(r.mean)}${ci}${star}  ${String(Math.round(pick('tcp', 'msgs_per_s')?.mean ?? 0)).padStart(10)}   ${String(Math.round(pick('uds', 'msgs_per_s')?.mean ?? 0)).padStart(10)}   ×${fmt(rtt?.mean ?? null)}`);
  }
  if (ratios.some((r) => r.ci95_low !== null)) lines.push(`  * the 95 % CI excludes 1. With ${ratios.length} comparisons, about ${(ratios.length * 0.05).toFixed(1)} could look significant by chance.`);
  const noisy = summary.filter((r) => r.metric === 'msgs_per_s' && r.cv_pct !== null && r.cv_pct > CV_WARN_PCT);
  if (noisy.length) {
    const worst = noisy.reduce((a, b) => (a.cv_pct > b.cv_pct ? a : b));
    lines.push(`warning: ${noisy.length} of ${summary.filter((r) => r.metric === 'msgs_per_s' && r.transport !== 'uds/tcp').length} groups vary by more than ${CV_WARN_PCT} % (CV) between runs, worst ${worst.cv_pct.toFixed(1)} % (${formatSize(worst.size_bytes)} depth ${worst.depth} ${worst.transport}); consider more --runs, longer trials (--duration), --pin split, or a quieter machine.`);
  }
  const outliers = summary.filter((r) => r.metric === 'msgs_per_s' && r.outliers > 0);
  if (outliers.length) lines.push(`note: ${outliers.reduce((n, r) => n + r.outliers, 0)} trial(s) are outliers by median/MAD (|modified Z| > 3.5); kept, and counted in summary.csv "outliers".`);
  return `${lines.join('\n')}\n`;
}
