/**
 * Make the report of a results directory: read it, build the findings, and
 * write summary.md, the SVG charts, report.html and results.xlsx (each file
 * whole, through a temporary file and a rename). The sweep calls this at
 * its end; `udsvstcp report` calls it on any results directory.
 */
import { depthLabel } from '../workloads/index.js';
import { accessSync, constants } from 'node:fs';
import { writeFileAtomic } from '../core/files.js';
import { join, resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { buildFindings } from './findings.js';
import { FIGURES, figureOf } from '../workloads/figures.js';
import { chartSpecs, renderSvg } from './charts.js';
import { toHtml } from './html.js';
import { toMarkdown } from './report-text.js';
import { readResultsDir } from '../results/reader.js';
import { SUMMARY_COLUMNS } from '../stats/summarize.js';
import { toRunsWide } from '../results/wide.js';
import { toXlsx } from './xlsx.js';

export const REPORT_FILES = { markdown: 'summary.md', html: 'report.html', xlsx: 'results.xlsx' };

/**
 * Through a unique temporary file, created exclusively, never through a symlink.
 * @param {string} path
 * @param {string | Uint8Array} data
 */
function writeWhole(path, data) {
  writeFileAtomic(path, typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
}

/**
 * The spec of the 2014 layout: the recorded spec, widened by what the trials hold.
 * @param {Record<string, any>[]} trials
 * @param {Record<string, any> | null} meta
 */
function wideSpec(trials, meta) {
  const spec = meta?.spec ?? {};
  const seen = (/** @type {string} */ key) => trials.map((r) => Number(r[key]));
  return {
    sizes: [...new Set([...(Array.isArray(spec.sizes) ? spec.sizes : []), ...seen('size_bytes')])].sort((a, b) => a - b),
    depths: [...new Set([...(Array.isArray(spec.depths) ? spec.depths : []), ...seen('depth')])].sort((a, b) => a - b),
    transports: Array.isArray(spec.transports) ? spec.transports : ['tcp', 'uds'],
    runs: Math.max(typeof spec.runs === 'number' ? spec.runs : 0, ...seen('run').map((r) => r + 1)),
  };
}

/**
 * summary.csv's columns with a `unit` column (added after `metric` where this version has none).
 * @param {Record<string, any>[]} summary
 */
function summaryWithUnits(summary) {
  const columns = [...SUMMARY_COLUMNS];
  if (columns.includes('unit')) return { columns, rows: summary };
  columns.splice(columns.indexOf('metric') + 1, 0, 'unit');
  return { columns, rows: summary.map((r) => ({ ...r, unit: r.transport === 'uds/tcp' ? 'ratio' : figureOf(r.metric).unit })) };
}

/**
 * @param {string} dir the results directory
 * @param {{ outDir?: string, primary?: string }} [options] outDir: where to write (default dir); primary: the metric verdicts are about
 */
export async function writeReport(dir, { outDir = dir, primary } = {}) {
  const results = readResultsDir(dir);
  try {
    accessSync(outDir, constants.W_OK);
  } catch {
    throw new UsageError(`${outDir}: not writable, so the report cannot be written there (give --out DIR)`, 'ERR_RESULTS');
  }
  const findings = buildFindings(results, { primary: primary ? FIGURES[primary] ?? figureOf(primary) : undefined });
  const files = [];
  const charts = [];
  for (const chart of chartSpecs(findings)) {
    const svg = await renderSvg(chart.spec);
    writeWhole(join(outDir, chart.name), svg);
    files.push(chart.name);
    charts.push({ name: chart.name, title: chart.title, svg });
  }
  writeWhole(join(outDir, REPORT_FILES.markdown), toMarkdown(findings));
  files.push(REPORT_FILES.markdown);

  const { columns: summaryColumns, rows: summaryRows } = summaryWithUnits(findings.summary);
  const about = /** @type {[string, string | number | null][]} */ ([
    ['status', findings.status],
    ...findings.sections.map((s) => /** @type {[string, string]} */ ([`verdict ${depthLabel(s.workload, s.depth)}`, s.verdict])),
    ...findings.warnings.map((w) => /** @type {[string, string]} */ (['warning', w])),
    ...Object.entries(results.meta?.environment ?? {}).map(([k, v]) => /** @type {[string, string | number | null]} */ ([k, typeof v === 'object' && v !== null ? JSON.stringify(v) : v])),
  ]);
  const xlsx = await toXlsx({ trials: results.trials, trialColumns: results.columns, summary: summaryRows, summaryColumns, wide: toRunsWide(results.trials, wideSpec(results.trials, results.meta)), about });
  writeWhole(join(outDir, REPORT_FILES.xlsx), xlsx);
  files.push(REPORT_FILES.xlsx);

  files.push(REPORT_FILES.html);
  writeWhole(join(outDir, REPORT_FILES.html), toHtml(findings, charts, { files }));
  return { findings, files: files.map((f) => join(resolve(outDir), f)) };
}
