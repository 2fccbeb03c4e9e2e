/** `compare()`: the groups two sweeps share, B/A of each figure with its 95 % CI (Welch, log scale), as one document. */
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { checkOptionKeys } from '../options/settings.js';
import { COMPARE_STATISTIC, compareSweeps, describeDifferences } from '../report/compare.js';
import { primaryFigure } from '../workloads/figures.js';
import { checkFigure } from './report.js';
import { readResultsDir } from '../results/reader.js';
import { readChainFile } from '../sweep/chain.js';

/**
 * @typedef {object} CompareOptions `udsvstcp compare`'s flags, camelCased
 * @property {string} [figure] the figure the table shows (default: the workload's primary; the document holds all)
 * @property {boolean} [allowSharedDir] read directories other users could change
 */

/**
 * Compare two results directories; resolves to the document `compare --json` prints.
 * @param {string} dirA the baseline sweep
 * @param {string} dirB the sweep compared with it
 * @param {CompareOptions} [options]
 * @returns {Promise<Record<string, any>>}
 */
export async function compare(dirA, dirB, options = {}) {
  return compareOutcome(dirA, dirB, options).document;
}

/**
 * @param {string} dirA
 * @param {string} dirB
 * @param {CompareOptions} [options]
 */
export function compareOutcome(dirA, dirB, options = {}) {
  checkOptionKeys('compare', options, ['figure', 'allowSharedDir']);
  const { figure } = options;
  const allowShared = Boolean(options.allowSharedDir);
  refuseChains(dirA, dirB, allowShared);
  const a = readResultsDir(dirA, { allowShared });
  const b = readResultsDir(dirB, { allowShared });
  if (figure !== undefined) checkFigure(String(figure), [{ workloads: a.workloads, source: dirA }, { workloads: b.workloads, source: dirB }]);
  const metric = figure === undefined ? primaryFigure(a.workloads[0]).metric : String(figure);
  const comparison = compareSweeps(a, b);
  const differences = describeDifferences(a.meta, b.meta);
  const document = { a: dirA, b: dirB, statistic: COMPARE_STATISTIC, differences, rows: comparison.rows, only_a: comparison.onlyA, only_b: comparison.onlyB };
  return { comparison, differences, metric, document };
}

/**
 * A chained preset's directory holds no sweep of its own, only its parts' (DIR/<part>/): refused, naming the parts'
 * directories to compare instead (part by part where both are chains of the same preset).
 * @param {string} dirA
 * @param {string} dirB
 * @param {boolean} allowShared
 */
function refuseChains(dirA, dirB, allowShared) {
  const [chainA, chainB] = [dirA, dirB].map((dir) => readChainFile(dir, { flag: 'compare', allowShared }));
  if (chainA === null && chainB === null) return;
  if (chainA && chainB && chainA.preset === chainB.preset) {
    throw new UsageError(`${dirA} and ${dirB} are directories of the chained preset ${chainA.preset}, whose parts are sweeps of their own: compare them part by part: ${chainA.parts.map((/** @type {Record<string, any>} */ p) => `udsvstcp compare ${join(dirA, String(p.name))} ${join(dirB, String(p.name))}`).join('; ')}`, 'ERR_COMPARE');
  }
  const [dir, chain] = chainA ? [dirA, chainA] : [dirB, /** @type {Record<string, any>} */ (chainB)];
  throw new UsageError(`${dir} is the directory of the chained preset ${chain.preset}, not of one sweep: compare one of its parts' directories instead: ${chain.parts.map((/** @type {Record<string, any>} */ p) => `${join(dir, p.name)} (${p.preset})`).join(', ')}`, 'ERR_COMPARE');
}
