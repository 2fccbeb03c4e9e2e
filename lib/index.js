/**
 * The programmatic API of udsvstcp: each command as a library call that
 * returns data (docs/architecture.md#programmatic-api).
 *
 *   import { sweep } from 'udsvstcp';
 *   const summary = await sweep({ preset: 'quick', test: true, out: 'results/q' });
 *
 * Options are the command's flags, camelCased (a spec file's keys for sweep); bad input throws a UsageError naming the
 * flag before anything starts.
 */
export { sweep } from './api/sweep.js';
export { run } from './api/run.js';
export { serve } from './api/serve.js';
export { report } from './api/report.js';
export { compare } from './api/compare.js';
export { UsageError, RunError } from './core/errors.js';
export { listPresets } from './sweep/spec.js';
export { parseSize, parseDuration, formatSize } from './core/units.js';

/** @typedef {import('./sweep/request.js').SweepOptions} SweepOptions */
/** @typedef {import('./api/sweep.js').SweepEvent} SweepEvent */
/** @typedef {import('./api/sweep.js').SweepHooks} SweepHooks */
/** @typedef {import('./api/run.js').RunOptions} RunOptions */
/** @typedef {import('./api/run.js').RunEvent} RunEvent */
/** @typedef {import('./api/run.js').RunResult} RunResult */
/** @typedef {import('./api/serve.js').ServeOptions} ServeOptions */
/** @typedef {import('./api/serve.js').Serving} Serving */
/** @typedef {import('./api/report.js').ReportOptions} ReportOptions */
/** @typedef {import('./api/compare.js').CompareOptions} CompareOptions */
