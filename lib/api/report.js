/** `report()`: a results directory's report files written into it (or `out`), and its findings as one document (`report --json`). */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { checkOptionKeys } from '../options/settings.js';
import { checkPrivateDir } from '../core/ownership.js';
import { resolveFigure } from '../workloads/figures.js';
import { readResultsDir } from '../results/reader.js';
import { toReportDocument } from '../results/json.js';
import { writeReport } from '../report/report-files.js';
import { chainReportOutcome } from './chain.js';

/**
 * @typedef {object} ReportOptions `udsvstcp report`'s flags, camelCased
 * @property {string} [out] write the report files here instead of the results directory (an existing directory)
 * @property {string} [figure] the figure verdicts and the first charts are about (default: the workload's primary)
 * @property {boolean} [allowSharedDir] read (and write) directories other users could change
 */

/**
 * Make the report of a results directory; resolves to its document (`report --json`). A chained preset's directory (with
 * chain.json) is reported as `udsvstcp report` does it: each part's report in the part's directory, and the chain's
 * document ({ chain, description, dir, status, parts: [{ name, preset, dir, status, document }] }).
 * @param {string} dir
 * @param {ReportOptions} [options]
 * @returns {Promise<Record<string, any>>}
 */
export async function report(dir, options = {}) {
  return ((await chainReportOutcome(dir, options)) ?? (await reportOutcome(dir, options))).document;
}

/**
 * @param {string} dir
 * @param {ReportOptions} [options]
 */
export async function reportOutcome(dir, options = {}) {
  checkOptionKeys('report', options, ['out', 'figure', 'allowSharedDir']);
  const { out, figure } = options;
  // checked before anything is written
  if (out !== undefined && (!existsSync(out) || !statSync(out).isDirectory())) throw new UsageError(`--out ${out}: not an existing directory`);
  const allowShared = Boolean(options.allowSharedDir);
  if (out !== undefined && !allowShared) checkPrivateDir(out, '--out');
  const results = readResultsDir(dir, { allowShared });
  // a figure of another workload than the directory's would give verdicts about nothing
  if (figure !== undefined) checkFigure(String(figure), [{ workloads: results.workloads, source: dir }]);
  const { findings, files } = await writeReport(dir, { outDir: out, primary: figure === undefined ? undefined : String(figure), allowShared, results });
  return { findings, files, document: toReportDocument(findings, { dir: resolve(dir), files }) };
}

/**
 * The figure --figure names, checked against the workloads of each results directory it is about (resolveFigure): an
 * unknown one lists the figures of all their workloads.
 * @param {string} figure
 * @param {{ workloads: string[], source: string }[]} results
 */
export function checkFigure(figure, results) {
  const listed = results.flatMap((r) => r.workloads);
  for (const { workloads, source } of results) resolveFigure(figure, { flag: '--figure', workloads, source, listed });
}
