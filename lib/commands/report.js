/**
 * `udsvstcp report DIR`: the report of a results directory (complete,
 * interrupted or failed): a table and a verdict per depth on stderr,
 * summary.md, SVG charts, report.html and results.xlsx in DIR (or --out),
 * and with --json the findings as JSON on stdout.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { describeResourceError } from '../core/resources.js';
import { printable } from '../core/text.js';
import { checkPrivateDir } from '../core/ownership.js';
import { resolveFigure } from '../workloads/figures.js';
import { readResultsDir } from '../results/reader.js';
import { toReportJson } from '../results/json.js';
import { writeReport } from '../report/report-files.js';
import { toReportText, toVerdictText } from '../report/report-text.js';

/**
 * Check the options before anything is read or written.
 * @param {Record<string, any>} opts
 */
function resolveReportOptions(opts) {
  if (opts.figure !== undefined) resolveFigure(String(opts.figure), { flag: '--figure' });
  if (opts.out !== undefined && (!existsSync(opts.out) || !statSync(opts.out).isDirectory())) throw new UsageError(`--out ${opts.out}: not an existing directory`);
  const allowShared = Boolean(opts.allowSharedDir);
  if (opts.out !== undefined && !allowShared) checkPrivateDir(opts.out, '--out');
  return { outDir: opts.out, primary: opts.figure, json: Boolean(opts.json), quiet: Boolean(opts.quiet), allowShared };
}

/**
 * @param {string} dir
 * @param {Record<string, any>} opts raw options from commander
 * @param {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream, chalk: import('chalk').ChalkInstance }} io
 * @returns {Promise<number>}
 */
export async function report(dir, opts, { stdout, stderr, chalk }) {
  const options = resolveReportOptions(opts);
  const results = readResultsDir(dir, { allowShared: options.allowShared });
  // a figure of another workload than the directory's would give verdicts about nothing
  if (options.primary !== undefined) resolveFigure(options.primary, { flag: '--figure', workloads: results.workloads, source: dir });
  const { findings, files } = await writeReport(dir, { ...options, results });
  if (!options.quiet) {
    stderr.write(toReportText(findings, { chalk }));
    stderr.write(`\n${files.map((f) => `  ${printable(f)}\n`).join('')}`);
  }
  if (options.json) stdout.write(reportJson(dir, { findings, files }));
  return 0;
}

/**
 * The --json document of a results directory's report, for `report --json`
 * and `sweep --json` alike (one document): the directory as an absolute path,
 * the findings and the files written.
 * @param {string} dir
 * @param {{ findings: import('../report/findings.js').Findings, files: string[] }} report
 */
export function reportJson(dir, { findings, files }) {
  return toReportJson(findings, { dir: resolve(dir), files });
}

/**
 * The report at the end of a sweep: write the files, print the verdicts.
 * A report that fails is said on stderr and does not fail the sweep.
 * @param {string} dir
 * @param {{ stderr: NodeJS.WritableStream, chalk: import('chalk').ChalkInstance, quiet?: boolean, allowShared?: boolean, summary?: Record<string, any>[] }} io summary: the sweep's own (summary.csv's rows), so it is computed once
 * @returns {Promise<{ findings: import('../report/findings.js').Findings, files: string[] } | null>} null when it could not be made
 */
export async function reportSweep(dir, { stderr, chalk, quiet = false, allowShared = false, summary }) {
  try {
    const { findings, files } = await writeReport(dir, { allowShared, summary });
    if (!quiet) stderr.write(`\n${toVerdictText(findings, { chalk })}`);
    // what the machine set is a warning: printed even with --quiet
    for (const w of findings.machineWarnings) stderr.write(chalk.yellow(`warning: ${printable(w)}\n`));
    if (!quiet) for (const n of findings.machineNotes) stderr.write(chalk.dim(`note: ${printable(n)}\n`));
    if (!quiet) stderr.write(files.map((f) => `  ${printable(f)}\n`).join(''));
    return { findings, files };
  } catch (error) {
    stderr.write(chalk.yellow(`warning: the report could not be made: ${printable(describeResourceError(error) ?? /** @type {Error} */ (error).message)} (try: npx udsvstcp report ${printable(dir)})\n`));
    return null;
  }
}
