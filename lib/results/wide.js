/**
 * The 2014 layout: header `NAME, RUN 0 … RUN n-1`, rows `UDS Size N` then
 * `TCP Size N`, values in ms per 100 000 round trips: the trial's elapsed ms
 * scaled to 100 000 packets, exactly the elapsed ms when a trial measures
 * 100 000 packets, as the 2014 sweep did. The unit is said in the NAME
 * header cell, where a spreadsheet user sees it. Failed trials leave empty
 * cells. Other workloads get the same layout with their primary figure
 * (GB/s, conns/s, req/s), its unit in the NAME cell.
 */
import { workloadOf } from '../workloads/index.js';

/**
 * The first header cell (the 2014 `NAME`, with the unit of every value in
 * the sheet) and the value of a trial row: the workload's own layout, or its
 * primary figure.
 * @param {string | undefined} workload
 * @returns {{ name: string, value: (trial: Record<string, any>) => number }}
 */
function layoutOf(workload) {
  const w = workloadOf(workload);
  return w.wide ?? { name: `NAME (${w.summary[w.primary].unit})`, value: (t) => t[w.primary] };
}

/**
 * @param {Record<string, any>[]} rows trial rows
 * @param {{ workload?: string, sizes: number[], depths: number[], transports: string[], runs: number }} spec runs: the planned runs; later runs in `rows` get columns too
 * @returns {{ columns: string[], rows: Record<string, string | number | null>[] }}
 */
export function toRunsWide(rows, spec) {
  // runs added for a target precision get columns too
  const runs = Math.max(spec.runs, ...rows.map((r) => Number(r.run) + 1).filter(Number.isFinite));
  const layout = layoutOf(spec.workload);
  const columns = [layout.name, ...Array.from({ length: runs }, (_, i) => `RUN ${i}`)];
  const out = [];
  for (const transport of ['uds', 'tcp'].filter((t) => spec.transports.includes(t))) {
    for (const depth of spec.depths) {
      for (const size of spec.sizes) {
        /** @type {Record<string, string | number | null>} */
        const row = { [layout.name]: `${transport.toUpperCase()} Size ${size}${spec.depths.length > 1 ? ` Depth ${depth}` : ''}` };
        for (let run = 0; run < runs; run++) {
          const trial = rows.find((r) => Number(r.run) === run && r.transport === transport && Number(r.size_bytes) === size && Number(r.depth) === depth && r.status === 'ok');
          row[`RUN ${run}`] = trial ? layout.value(trial) : null;
        }
        out.push(row);
      }
    }
  }
  return { columns, rows: out };
}
