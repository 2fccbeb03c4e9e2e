/**
 * `udsvstcp run`: run() (lib/api/run.js) with what it says on stderr, --json records on stdout as each trial ends, the
 * table and each transport against TCP at the end, and an exit code.
 */
import { printable } from '../core/text.js';
import { toJsonLine } from '../results/json.js';
import { toComparison, toTable } from '../report/table.js';
import { run as runTrials } from '../api/run.js';

/**
 * @param {Record<string, any>} opts raw options from commander
 * @param {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream, chalk: import('chalk').ChalkInstance }} io
 */
export async function run(opts, { stdout, stderr, chalk }) {
  const { json, ...options } = opts;
  const { rows, ratios, warnings, wakeup, serverWorkUs } = await runTrials(options, {
    onProgress: (event) => {
      if (event.type === 'note') stderr.write(chalk.yellow(`note: ${printable(event.text)}\n`));
      else if (event.type === 'warning') stderr.write(chalk.yellow(`warning: ${printable(event.text)}\n`));
      else if (event.type === 'info') stderr.write(event.dim ? chalk.dim(`${printable(event.text)}\n`) : `${printable(event.text)}\n`);
      else if (event.type === 'trial-end' && json) for (const record of event.records) stdout.write(toJsonLine(record));
    },
  });
  stderr.write(`\n${toTable(/** @type {any} */ (rows), { chalk })}`);
  for (const warning of warnings) stderr.write(chalk.yellow(`warning: ${printable(warning)}\n`));
  const comparison = toComparison(/** @type {any} */ (rows), { chalk, ratios, workUs: serverWorkUs });
  if (comparison) stderr.write(`\n${comparison}`);
  if (wakeup) {
    const { shares, warning, note } = wakeup;
    if (shares.length) stderr.write(`wake-up share of the mean round trip: ${shares.map((s) => `${s.transport.toUpperCase()} ${Math.round(s.share * 100)} %`).join(', ')}\n`);
    if (warning) stderr.write(chalk.yellow(`warning: ${warning}\n`));
    if (note) stderr.write(chalk.dim(`note: ${note}\n`));
  }
  const failed = rows.filter((r) => r.status !== 'ok');
  for (const r of failed) stderr.write(`udsvstcp: ${r.transport} trial failed: ${printable(r.error)}\n`);
  return failed.length ? 1 : 0;
}
