/**
 * `udsvstcp report DIR`: a table and a verdict per depth on stderr, the report files in DIR (or --out), with --json the
 * document on stdout. Also how a sweep's report is printed at its end.
 */
import { printable } from '../core/text.js';
import { toJsonText } from '../results/json.js';
import { toReportText, toVerdictText } from '../report/report-text.js';
import { reportOutcome } from '../api/report.js';
import { chainReportOutcome } from '../api/chain.js';
import { resumeCommand } from '../core/shell.js';

/**
 * @param {string} dir
 * @param {Record<string, any>} opts raw options from commander
 * @param {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream, chalk: import('chalk').ChalkInstance }} io
 */
export async function report(dir, opts, { stdout, stderr, chalk }) {
  const options = { out: opts.out, figure: opts.figure, allowSharedDir: opts.allowSharedDir };
  /** @param {{ findings: import('../report/findings.js').Findings, files: string[] }} made */
  const print = ({ findings, files }) => {
    if (!opts.quiet) stderr.write(`${toReportText(findings, { chalk })}\n${files.map((f) => `  ${printable(f)}\n`).join('')}`);
  };
  const chain = await chainReportOutcome(dir, options);
  if (!chain) {
    const made = await reportOutcome(dir, options);
    print(made);
    if (opts.json) stdout.write(toJsonText(made.document));
    return 0;
  }
  // a chained preset's directory: each part's report, under a line naming the part
  for (const [index, { name, preset, dir: partDir, made }] of chain.parts.entries()) {
    if (!opts.quiet) stderr.write(`${index ? '\n' : ''}== part ${name} (${index + 1} of ${chain.parts.length}): ${preset} in ${printable(partDir)}${made ? '' : `: not run yet (${printable(resumeCommand(dir, null))} runs it)`}\n`);
    if (made) print(made);
  }
  if (opts.json) stdout.write(toJsonText(chain.document));
  return 0;
}

/**
 * The report at the end of a sweep: verdicts, the warnings `report DIR` gives (even when quiet: --quiet leaves errors
 * and warnings) but those of the sweep's state, which the sweep says in its own closing lines (rows recorded and
 * failed, how to resume), the machine's notes, the files written.
 * @param {{ findings: import('../report/findings.js').Findings, files: string[] }} made
 * @param {{ stderr: NodeJS.WritableStream, chalk: import('chalk').ChalkInstance, quiet?: boolean }} io
 */
export function printSweepReport({ findings, files }, { stderr, chalk, quiet = false }) {
  if (!quiet) stderr.write(`\n${toVerdictText(findings, { chalk })}`);
  for (const w of findings.warnings) {
    if (findings.stateWarnings.includes(w)) continue;
    stderr.write(chalk.yellow(`warning: ${printable(w)}\n`));
  }
  if (!quiet) for (const n of findings.machineNotes) stderr.write(chalk.dim(`note: ${printable(n)}\n`));
  if (!quiet) stderr.write(files.map((f) => `  ${printable(f)}\n`).join(''));
}
