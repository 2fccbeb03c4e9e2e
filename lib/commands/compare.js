/** `udsvstcp compare DIR_A DIR_B`: the table goes to stderr; --json puts the document (every row) on stdout. */
import { toCompareText } from '../report/compare.js';
import { compareOutcome } from '../api/compare.js';

/**
 * @param {string} dirA
 * @param {string} dirB
 * @param {Record<string, any>} opts raw options from commander
 * @param {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream, chalk: import('chalk').ChalkInstance }} io
 */
export async function compare(dirA, dirB, opts, { stdout, stderr, chalk }) {
  const { comparison, differences, metric, document } = compareOutcome(dirA, dirB, { figure: opts.figure, allowSharedDir: opts.allowSharedDir });
  if (!opts.quiet) stderr.write(toCompareText(comparison, { metric, differences, chalk, a: dirA, b: dirB }));
  if (opts.json) stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  return 0;
}
