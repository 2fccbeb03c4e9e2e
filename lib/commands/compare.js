/**
 * `udsvstcp compare DIR_A DIR_B`: the groups two sweeps share, side by
 * side, with B/A of each figure and its 95 % CI. The table goes to stderr;
 * --json puts every row on stdout.
 */
import { COMPARE_STATISTIC, compareSweeps, describeDifferences, toCompareText } from '../report/compare.js';
import { primaryFigure, resolveFigure } from '../workloads/figures.js';
import { readResultsDir } from '../results/reader.js';

/**
 * @param {string} dirA
 * @param {string} dirB
 * @param {Record<string, any>} opts raw options from commander
 * @param {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream, chalk: import('chalk').ChalkInstance }} io
 * @returns {Promise<number>}
 */
export async function compare(dirA, dirB, opts, { stdout, stderr, chalk }) {
  if (opts.figure !== undefined) resolveFigure(String(opts.figure), { flag: '--figure' });
  const allowShared = Boolean(opts.allowSharedDir);
  const a = readResultsDir(dirA, { allowShared });
  const b = readResultsDir(dirB, { allowShared });
  if (opts.figure !== undefined) {
    resolveFigure(String(opts.figure), { flag: '--figure', workloads: a.workloads, source: dirA });
    resolveFigure(String(opts.figure), { flag: '--figure', workloads: b.workloads, source: dirB });
  }
  const metric = opts.figure === undefined ? primaryFigure(a.workloads[0]).metric : String(opts.figure);
  const comparison = compareSweeps(a, b);
  const differences = describeDifferences(a.meta, b.meta);
  if (!opts.quiet) stderr.write(toCompareText(comparison, { metric, differences, chalk, a: dirA, b: dirB }));
  if (opts.json) {
    const document = { a: dirA, b: dirB, statistic: COMPARE_STATISTIC, differences, rows: comparison.rows, only_a: comparison.onlyA, only_b: comparison.onlyB };
    stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  }
  return 0;
}
