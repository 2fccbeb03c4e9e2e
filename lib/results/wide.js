/** runs-wide.csv, the 2014 layout: a row per transport and group, a column per run (docs/results.md#runs-widecsv). */
import { MAX_RUNS } from '../core/limits.js';
import { workloadOf } from '../workloads/index.js';
import { orderVersions } from '../core/node-executables.js';
import { BASELINE, HEADLINE, orderTransports } from '../transports/index.js';

/**
 * The 2014 layout of trial rows: columns are the run numbers the rows hold and the planned runs (at most MAX_RUNS);
 * rows the planned groups and those the rows hold, per transport. A run without a value is absent (an empty cell).
 * @param {Record<string, any>[]} rows trial rows
 * @param {{ workload?: string, sizes: number[], depths: number[], transports: string[], runs: number, nodes?: string[] }} spec runs: the planned runs;
 *   nodes: the Node versions in order (default: those of the rows, oldest first)
 * @returns {{ columns: string[], rows: Record<string, string | number | null>[] }}
 */
export function toRunsWide(rows, spec) {
  const w = workloadOf(spec.workload);
  /** @type {{ name: string, value: (trial: Record<string, any>) => number }} the first header cell and a trial row's value */
  const layout = w.wide ?? { name: `NAME (${w.summary[w.primary].unit})`, value: (t) => t[w.primary] };
  // 2014's order, UDS then TCP, then any other transport in the registry's order
  const transports = [HEADLINE, BASELINE, ...orderTransports(spec.transports)].filter((t, i, all) => spec.transports.includes(t) && all.indexOf(t) === i);
  const planned = Number.isSafeInteger(spec.runs) ? Math.min(Math.max(spec.runs, 0), MAX_RUNS) : 0;
  /** @type {Set<number>} */
  const runs = new Set(Array.from({ length: planned }, (_, i) => i));
  /** @type {Map<string, { size: number, depth: number }>} by `depth|size` */
  const groups = new Map();
  const addGroup = (/** @type {number} */ size, /** @type {number} */ depth) => { if (!groups.has(`${depth}|${size}`)) groups.set(`${depth}|${size}`, { size, depth }); };
  for (const depth of spec.depths) for (const size of spec.sizes) addGroup(size, depth);
  /** @type {Map<string, Map<number, number>>} values by `version|transport|depth|size`, then run */
  const values = new Map();
  /** @type {Set<string | null>} */
  const found = new Set();
  for (const r of rows) {
    const run = Number(r.run);
    const size = Number(r.size_bytes);
    const depth = Number(r.depth);
    if (!Number.isSafeInteger(run) || !Number.isFinite(size) || !Number.isFinite(depth)) continue;
    runs.add(run); // failed trials' runs get columns too, as in 2014
    addGroup(size, depth);
    const version = typeof r.node_version === 'string' && r.node_version !== '' ? r.node_version : null;
    found.add(version);
    if (r.status !== 'ok' || !transports.includes(r.transport)) continue;
    const key = `${version}|${r.transport}|${depth}|${size}`;
    if (!values.has(key)) values.set(key, new Map());
    const byRun = /** @type {Map<number, number>} */ (values.get(key));
    if (!byRun.has(run)) byRun.set(run, layout.value(r));
  }
  const order = [...groups.values()].sort((a, b) => a.depth - b.depth || a.size - b.size);
  const manyDepths = new Set(order.map((g) => g.depth)).size > 1;
  const columns = [layout.name, ...[...runs].sort((a, b) => a - b).map((run) => `RUN ${run}`)];
  const versions = orderVersions([...found, ...(spec.nodes ?? [])], spec.nodes);
  const many = versions.length > 1;
  const out = [];
  for (const version of versions.length ? versions : [null]) {
    for (const transport of transports) {
      for (const { size, depth } of order) {
        /** @type {Record<string, string | number | null>} */
        const row = { [layout.name]: `${transport.toUpperCase()} Size ${size}${manyDepths ? ` Depth ${depth}` : ''}${many ? ` Node ${version}` : ''}` };
        // one version: rows of any version (files written before the axis have none)
        const mine = many ? [values.get(`${version}|${transport}|${depth}|${size}`)] : [...found].map((v) => values.get(`${v}|${transport}|${depth}|${size}`));
        for (const byRun of mine) for (const [run, value] of byRun ?? []) row[`RUN ${run}`] ??= value;
        out.push(row);
      }
    }
  }
  return { columns, rows: out };
}
