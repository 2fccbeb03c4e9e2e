/**
 * Make the report of a results directory: summary.md, the SVG charts, report.html and results.xlsx, each written whole
 * through a temporary file and a rename. Called at a sweep's end, and by `udsvstcp report` on any results directory.
 */
import { PAIR } from '../transports/index.js';
import { depthLabel } from '../workloads/index.js';
import { accessSync, constants } from 'node:fs';
import { writeFileAtomic } from '../core/files.js';
import { join, resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { buildFindings } from './findings.js';
import { figureOf } from '../workloads/figures.js';
import { toMarkdown } from './report-text.js';
import { readResultsDir } from '../results/reader.js';
import { SUMMARY_COLUMNS } from '../stats/summarize.js';
import { toRunsWide } from '../results/wide.js';
import { cpuTimeRows, machineRows } from './machine.js';

export const REPORT_FILES = { markdown: 'summary.md', html: 'report.html', xlsx: 'results.xlsx' };

/**
 * meta.json's environment as the report sheet's rows, a value a cell: an object's keys each a row of their own
 * (`net.somaxconn`), so that a number stays a number; a list as text (`0.52 0.4 0.31`).
 * @param {Record<string, any> | null | undefined} environment
 * @returns {[string, string | number | null][]}
 */
function environmentRows(environment, prefix = '') {
  return Object.entries(environment ?? {}).flatMap(([key, value]) => {
    if (Array.isArray(value)) return [[`${prefix}${key}`, value.join(' ')]];
    if (typeof value === 'object' && value !== null) return environmentRows(value, `${prefix}${key}.`);
    return [[`${prefix}${key}`, typeof value === 'number' || typeof value === 'string' ? value : value === null ? null : String(value)]];
  });
}

/**
 * Make every file of the report in memory, then write them: a directory that cannot be read right, or a report that
 * cannot be made, leaves an earlier report's files as they were.
 * @param {string} dir the results directory
 * @param {{ outDir?: string, primary?: string, results?: import('../results/reader.js').ResultsDir, summary?: Record<string, any>[], allowShared?: boolean, write?: boolean }} [options]
 *   outDir: where to write (default dir); primary: the metric verdicts are about; results: dir, already read;
 *   summary: the rows of summarize() when the caller (the sweep) has them, so they are computed once;
 *   allowShared: read a directory other users could change (--allow-shared-dir); write: false, the findings only (sweep --no-report)
 */
export async function writeReport(dir, { outDir = dir, primary, results = undefined, summary = undefined, allowShared = false, write = true } = {}) {
  const read = results ?? readResultsDir(dir, { allowShared });
  try {
    accessSync(outDir, constants.W_OK);
  } catch {
    throw new UsageError(`${outDir}: not writable, so the report cannot be written there (give --out DIR)`, 'ERR_RESULTS');
  }
  const findings = buildFindings(read, { primary: primary ? figureOf(primary, read.trials[0]?.workload ?? read.meta?.spec?.workload) : undefined, summary });
  if (!write) return { findings, files: [] };
  // what makes the files loads only when they are written: a sweep with --no-report needs the findings alone
  const [{ chartSpecs, renderSvg }, { toHtml }, { toXlsx }] = await Promise.all([import('./charts.js'), import('./html.js'), import('./xlsx.js')]);
  /** @type {[string, string | Buffer][]} */
  const contents = [];
  const charts = [];
  for (const chart of chartSpecs(findings)) {
    const svg = await renderSvg(chart.spec);
    contents.push([chart.name, svg]);
    charts.push({ name: chart.name, title: chart.title, svg });
  }
  contents.push([REPORT_FILES.markdown, toMarkdown(findings)]);

  const about = /** @type {[string, string | number | null][]} */ ([
    ['status', findings.status],
    ...findings.sections.map((s) => /** @type {[string, string]} */ ([`verdict ${s.node ? `${s.node} ` : ''}${depthLabel(s.workload, s.depth)}`, s.verdict])),
    ...findings.versions.map((v) => /** @type {[string, string]} */ ([`node ${v.node}/${v.base}`, v.line])),
    ...findings.warnings.map((w) => /** @type {[string, string]} */ (['warning', w])),
    ...(Array.isArray(read.meta?.nodes) ? read.meta.nodes : []).map((/** @type {any} */ n, /** @type {number} */ i) => /** @type {[string, string]} */ ([`node ${i === 0 ? '(baseline) ' : ''}${n?.version}`, `V8 ${n?.v8}, libuv ${n?.libuv}: ${n?.path}`])),
    ...environmentRows(read.meta?.environment),
    ...machineRows(read.meta?.machine, findings.sections, read.meta?.pinning),
    ...cpuTimeRows(read.meta?.sessions),
  ]);
  // the 2014 layout of what meta.json planned (checked by the reader); toRunsWide adds the groups and runs the trials hold
  const spec = read.meta?.spec ?? {};
  const wide = toRunsWide(read.trials, { workload: read.workloads[0], sizes: spec.sizes ?? [], depths: spec.depths ?? [], transports: spec.transports ?? [...PAIR], runs: spec.runs ?? 0 });
  contents.push([REPORT_FILES.xlsx, await toXlsx({ trials: read.trials, trialColumns: read.columns, summary: findings.summary, summaryColumns: SUMMARY_COLUMNS, wide, about })]);
  const files = [...contents.map(([name]) => name), REPORT_FILES.html];
  contents.push([REPORT_FILES.html, toHtml(findings, charts, { files })]);

  for (const [name, data] of contents) writeFileAtomic(join(outDir, name), data); // through a temporary file, never a symlink
  return { findings, files: files.map((f) => join(resolve(outDir), f)) };
}
