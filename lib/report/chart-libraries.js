/**
 * The chart libraries, vega and vega-lite, loaded when the first chart is
 * drawn and not before: they are some 380 modules in about 90 packages.
 *
 * Node 20 reads a module graph with its files open all at once: these take
 * about 110 file descriptors, so under a low `ulimit -n` (64, say) the
 * import failed after every trial had succeeded, and misleadingly ("Cannot
 * find package"). Where the soft limit is below 1024 on Node before 22, a
 * module hook (./module-throttle.js) first makes modules load a few at a
 * time. Node 22 and later read modules one at a time and need none.
 */
import { readFileSync } from 'node:fs';
import { register } from 'node:module';

/** A soft open-file limit below this, on Node before 22, loads through the throttle. */
const THROTTLE_BELOW = 1024;

/**
 * @typedef {object} ChartLibraries
 * @property {typeof import('vega')} vega
 * @property {typeof import('vega-lite')} vegaLite
 */

/** @type {Promise<ChartLibraries> | undefined} */
let loaded;

/** The soft limit on open files, from Linux's /proc; undefined where unknown or unlimited. */
export function openFileLimit() {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft && /^\d+$/.test(soft) ? Number(soft) : undefined;
  } catch {
    return undefined;
  }
}

/** @returns {Promise<ChartLibraries>} */
async function load() {
  const limit = openFileLimit();
  const low = limit !== undefined && limit < THROTTLE_BELOW;
  if (low && Number(process.versions.node.split('.')[0]) < 22) register('./module-throttle.js', import.meta.url);
  try {
    const [vega, vegaLite] = await Promise.all([import('vega'), import('vega-lite')]);
    return { vega, vegaLite };
  } catch (error) {
    const message = String(/** @type {Error} */ (error).message).split('\n')[0];
    throw new Error(`the chart library could not be loaded: ${message}${low ? ` (the open-file limit is ${limit}; raise it with ulimit -n)` : ''}`, { cause: error });
  }
}

/**
 * vega and vega-lite, loaded on the first call.
 * @returns {Promise<ChartLibraries>}
 */
export const loadChartLibraries = () => (loaded ??= load());
