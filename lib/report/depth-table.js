/** The table of one depth as cells of text (a selection of the figures in summary.csv), for the terminal, Markdown and HTML. Pure. */
import { isModerated } from '../stats/summarize.js';
import { sizeLabel, workloadOf } from '../workloads/index.js';
import { HEADLINE, PAIR, labelOf, othersOf, ratioOf } from '../transports/index.js';
import { estimatesOf } from './estimates.js';
import { human } from './table.js';
import { formatRatio } from './verdict.js';

/**
 * @typedef {object} Column
 * @property {string} title short, for the terminal
 * @property {string} heading with units, for Markdown and HTML
 * @property {boolean} numeric right-aligned
 */

/** @param {number | null | undefined} v */
const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? human(v) : '-');
/** @param {number | null | undefined} v */
const ratio = (v) => (typeof v === 'number' && Number.isFinite(v) ? formatRatio(v) : '-');
/** A ratio's 95 % CI as a cell. @param {{ low: number | null, high: number | null } | null | undefined} r */
export const ciCell = (r) => (r && r.low !== null && r.high !== null ? `${ratio(r.low)}–${ratio(r.high)}` : '-');
/** Whether a ratio's CI excludes 1, as a cell. @param {{ significant: string | null } | null | undefined} r */
export const sigCell = (r) => (r?.significant === 'yes' ? 'yes' : r?.significant === 'no' ? 'no' : '-');

/**
 * @param {import('./findings.js').Section} section
 * @returns {{ columns: Column[], rows: string[][], mechanisms: boolean }} mechanisms: it has mechanism columns
 */
export function depthTable(section) {
  const p = section.primary;
  const w = workloadOf(section.workload);
  // the workload's CPU figures: client, server, and nginx for proxy
  const cpuMetrics = Object.keys(w.summary).filter((m) => /^(client|server|proxy)_cpu_/.test(m));
  // the mechanism figures shown: voluntary context switches and write calls, per side
  // (left out where no size has them: results written before they were measured)
  const others = othersOf(section.transports ?? []);
  const shown = [...PAIR, ...others];
  const measured = (/** @type {string} */ m) => section.sizes.some((row) => row.figures[m] && shown.some((t) => estimatesOf(row.figures[m])[t]));
  const mechanismMetrics = Object.keys(w.summary).filter((m) => w.summary[m].mechanism && /^[a-z]+_(vcsw|writes)_per_/.test(m) && measured(m));
  const sideOf = (/** @type {string} */ m) => ({ client: ['cli', 'client'], server: ['srv', 'server'], proxy: ['nginx', 'nginx'], nginx: ['nginx', 'nginx'] })[/** @type {'client' | 'server' | 'proxy' | 'nginx'} */ (m.split('_')[0])];
  const unitOf = (/** @type {string} */ m) => w.summary[m].unit.replace(/^us/, 'µs');
  /** a column per transport shown, the first titled in full @param {string} title @param {(label: string) => string} heading @returns {Column[]} */
  const perTransport = (title, heading) => shown.map((t, i) => ({ title: i ? labelOf(t) : `${title} ${labelOf(t)}`, heading: heading(labelOf(t)), numeric: true }));
  /** @type {Column[]} */
  const columns = [
    { title: 'size', heading: 'size', numeric: false },
    ...PAIR.map((t) => ({ title: `${labelOf(t)} ${p.short}`, heading: `${labelOf(t)} ${p.short}`, numeric: true })),
    { title: labelOf(ratioOf(HEADLINE)), heading: `${labelOf(ratioOf(HEADLINE))} (×)`, numeric: true },
    { title: '95 % CI', heading: '95 % CI (×)', numeric: false },
    { title: 'sig', heading: 'CI excludes 1', numeric: false },
    { title: 'runs', heading: 'paired runs', numeric: true },
    // every other transport: its figure and its ratio to TCP
    ...others.flatMap((t) => [
      { title: `${labelOf(t)} ${p.short}`, heading: `${labelOf(t)} ${p.short}`, numeric: true },
      { title: `${labelOf(t)}/TCP`, heading: `${labelOf(t)}/TCP (×)`, numeric: true },
      { title: '95 % CI', heading: `${labelOf(t)}/TCP 95 % CI (×)`, numeric: false },
      { title: 'sig', heading: `${labelOf(t)}/TCP CI excludes 1`, numeric: false },
    ]),
    ...cpuMetrics.flatMap((m) => perTransport(`${sideOf(m)[0]} ${unitOf(m)}`, (label) => `${sideOf(m)[1]} CPU ${label} (${unitOf(m)})`)),
    ...mechanismMetrics.flatMap((m) => perTransport(`${sideOf(m)[0]} ${m.split('_')[1]}`, (label) => `${sideOf(m)[1]} ${unitOf(m)} ${label}`)),
  ];
  const rows = section.sizes.map((row) => {
    const f = row.figures[p.metric];
    const r = f.ratio;
    const cpu = (/** @type {string} */ metric, /** @type {string} */ t) => num(row.figures[metric] ? estimatesOf(row.figures[metric])[t]?.value : undefined);
    return [
      sizeLabel(section.workload, row.size_bytes),
      ...PAIR.map((t) => num(estimatesOf(f)[t]?.value)),
      ratio(r?.value),
      ciCell(r),
      sigCell(r),
      r ? String(r.n) : '0',
      ...others.flatMap((t) => { const o = f.others?.[t]; return [num(o?.value?.value), ratio(o?.ratio?.value), ciCell(o?.ratio), sigCell(o?.ratio)]; }),
      ...[...cpuMetrics, ...mechanismMetrics].flatMap((m) => shown.map((t) => cpu(m, t))),
    ];
  });
  return { columns, rows, mechanisms: mechanismMetrics.length > 0 };
}

/**
 * What the figures in the tables of a report's sections are, in one paragraph.
 * @param {import('./findings.js').Findings} findings with one section or more
 */
export function describeTable({ sections, centre, summary }) {
  const [{ primary }] = sections;
  const moderated = isModerated(summary);
  const mechanisms = sections.some((s) => depthTable(s).mechanisms); // some table has mechanism columns
  const mechanism = ' vcsw: voluntary context switches (the process waited and was woken), writes: write system calls, '
    + 'each per unit of work (message, chunk, connection or request); involuntary switches and read calls are in summary.csv.';
  return `${primary.short}: ${centre} over runs. UDS/TCP: geometric mean of the per-run ratios (UDS and TCP of the same run), `
    + `with a Student-t 95 % confidence interval on the log scale${moderated ? ' (each group\'s run-to-run variance moderated across the groups: empirical Bayes, degrees of freedom in summary.csv)' : ''}; "CI excludes 1" means the difference is significant at that level. CPU: user + system time per unit of work (message, GB, connection or request, as the heading says).${mechanisms ? mechanism : ''}`;
}
