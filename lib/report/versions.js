/**
 * What a report says of Node versions against each other (VersionFinding: a line in words and a table per version after
 * the baseline), from summarize()'s comparison rows (lib/stats/versions.js). Pure.
 */
import { isVersionComparison } from '../stats/versions.js';
import { labelOf, orderTransports, ratiosOf, ratioTransport } from '../transports/index.js';
import { depthLabel, sizeLabel } from '../workloads/index.js';
import { ciCell, sigCell } from './depth-table.js';
import { formatRatio, span } from './verdict.js';

/**
 * @typedef {import('./findings.js').RatioEstimate} VersionRatio version / baseline, or a ratio of ratios to TCP
 *
 * @typedef {object} VersionGroup
 * @property {number} size_bytes
 * @property {number} depth
 * @property {Record<string, VersionRatio | null>} ratios by ratio cell (`uds/tcp`, `worker/tcp` …): the ratio of the two versions' ratios to TCP
 * @property {Record<string, VersionRatio | null>} transports by transport (`tcp`, `uds`, `worker` …): its primary
 *   figure, version / baseline
 *
 * @typedef {object} VersionFinding
 * @property {string} workload
 * @property {string} node the version
 * @property {string} base the baseline
 * @property {import('../workloads/figures.js').Figure} primary
 * @property {string[]} ratios the ratio cells compared, the headline first (none without TCP)
 * @property {string[]} transports the transports compared, in lib/transports/ order
 * @property {VersionGroup[]} groups by size, then depth
 * @property {string} line in words
 */

/**
 * @param {Record<string, any> | undefined} row
 * @returns {VersionRatio | null}
 */
function estimateOf(row) {
  if (!row || typeof row.geomean !== 'number') return null;
  return { value: row.geomean, low: typeof row.ci95_low === 'number' ? row.ci95_low : null, high: typeof row.ci95_high === 'number' ? row.ci95_high : null, n: Number(row.n), significant: row.significant ?? null };
}

/**
 * `TCP msgs/s ×1.21–1.25 (95 % CI excludes 1 at 2 of 2 groups)`
 * @param {string} what
 * @param {{ g: VersionGroup, r: VersionRatio }[]} found
 * @param {string} workload
 * @param {boolean} [name] name the groups whose CI excludes 1 (up to 3)
 */
function describe(what, found, workload, name = false) {
  if (!found.length) return `${what}: not compared`;
  const tested = found.filter((x) => x.r.low !== null);
  const changed = tested.filter((x) => x.r.significant === 'yes');
  const where = name && changed.length
    ? `: ${changed.slice(0, 3).map((x) => `${sizeLabel(workload, x.g.size_bytes)} ${depthLabel(workload, x.g.depth)} ×${formatRatio(x.r.value)}`).join(', ')}${changed.length > 3 ? ', …' : ''}`
    : '';
  const ci = tested.length === 0 ? 'one run: no CI' : `95 % CI excludes 1 at ${changed.length} of ${found.length} group${found.length === 1 ? '' : 's'}${where}`;
  return `${what} ×${span(found.map((x) => x.r.value))} (${ci})`;
}

/**
 * @param {Record<string, any>[]} summary rows of summarize()
 * @param {(workload: string) => import('../workloads/figures.js').Figure} primaryOf the figure verdicts are about
 */
export function versionFindings(summary, primaryOf) {
  const rows = summary.filter(isVersionComparison);
  /** @type {VersionFinding[]} */
  const out = [];
  const pairs = [...new Set(rows.map((r) => `${r.workload}|${r.node_version}`))];
  for (const pair of pairs) {
    const [workload, label] = pair.split('|');
    const [node, base] = label.split('/');
    const primary = primaryOf(workload);
    // every transport of the sweep: those measured (each version's own rows) and those compared
    const transports = orderTransports(summary.filter((r) => String(r.workload) === workload).map((r) => String(r.transport)).filter((t) => ratioTransport(t) === null));
    const ratios = ratiosOf(transports);
    const mine = rows.filter((r) => String(r.workload) === workload && r.node_version === label && r.metric === primary.metric);
    const keys = [...new Set(mine.map((r) => `${r.size_bytes}|${r.depth}`))].map((k) => k.split('|').map(Number)).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const groups = keys.map(([size, depth]) => {
      const pick = (/** @type {string} */ cell) => estimateOf(mine.find((r) => Number(r.size_bytes) === size && Number(r.depth) === depth && r.transport === cell));
      return { size_bytes: size, depth, ratios: Object.fromEntries(ratios.map((c) => [c, pick(c)])), transports: Object.fromEntries(transports.map((t) => [t, pick(t)])) };
    });
    const of = (/** @type {'ratios' | 'transports'} */ kind, /** @type {string} */ cell) => groups.flatMap((g) => (g[kind][cell] ? [{ g, r: /** @type {VersionRatio} */ (g[kind][cell]) }] : []));
    const parts = [
      ...ratios.map((c) => describe(`${labelOf(c)} ${primary.short}`, of('ratios', c), workload, true)),
      ...transports.map((t) => describe(`${labelOf(t)} ${primary.short}`, of('transports', t), workload)),
    ];
    out.push({ workload, node, base, primary, ratios, transports, groups, line: `Node ${node} against ${base}: ${parts.join('; ')}.` });
  }
  return out;
}

/**
 * The table of one version against the baseline, as cells of text (as ./depth-table.js gives a depth's):
 * per ratio to TCP its value, CI and whether the CI excludes 1, then per transport its value and CI.
 * @param {VersionFinding} finding
 * @returns {{ columns: import('./depth-table.js').Column[], rows: string[][] }}
 */
export function versionTable(finding) {
  const p = finding.primary.short;
  const ratio = (/** @type {VersionRatio | null} */ r) => (r ? formatRatio(r.value) : '-');
  const who = `${finding.node}/${finding.base}`;
  const interval = { title: '95 % CI', heading: '95 % CI (×)', numeric: false };
  /** the runs paired of a group: its first estimate's @param {VersionGroup} g */
  const runs = (g) => [...Object.values(g.ratios), ...Object.values(g.transports)].find((r) => r)?.n ?? 0;
  return {
    columns: [
      { title: 'size', heading: 'size', numeric: false },
      { title: 'depth', heading: 'depth', numeric: true },
      ...finding.ratios.flatMap((c) => [
        { title: `${labelOf(c)} ×`, heading: `${labelOf(c)} ${p}, ${who} (×)`, numeric: true },
        interval,
        { title: 'sig', heading: 'CI excludes 1', numeric: false },
      ]),
      ...finding.transports.flatMap((t) => [{ title: `${labelOf(t)} ${p} ×`, heading: `${labelOf(t)} ${p}, ${who} (×)`, numeric: true }, interval]),
      { title: 'runs', heading: 'paired runs', numeric: true },
    ],
    rows: finding.groups.map((g) => [
      sizeLabel(finding.workload, g.size_bytes), String(g.depth),
      ...finding.ratios.flatMap((c) => [ratio(g.ratios[c]), ciCell(g.ratios[c]), sigCell(g.ratios[c])]),
      ...finding.transports.flatMap((t) => [ratio(g.transports[t]), ciCell(g.transports[t])]),
      String(runs(g)),
    ]),
  };
}

/** What the version tables hold, in one paragraph. */
export const VERSION_TABLE_NOTE = 'Node versions: every run measured every group under every version, interleaved in time; each figure is version / baseline (the first version given), the geometric mean of the per-run ratios with a Student-t 95 % interval over runs; a ratio to TCP (UDS/TCP ×, Worker/TCP × …) is the ratio of the two versions\' ratios (above 1: that transport gains more over TCP under that version).';
