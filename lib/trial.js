/**
 * One trial: dispatch a spec to its workload and turn any failure into one
 * record with status=error per target, so callers always get rows.
 */
import { errorRecord } from './record.js';
import { runEcho } from './workloads/echo.js';

/** @typedef {import('./workloads/echo.js').EchoSpec} TrialSpec */
/** @typedef {import('./workloads/echo.js').ServerProbe} ServerProbe */
/** @typedef {import('./workloads/echo.js').TrialResult} TrialResult */
/** @typedef {import('./workloads/echo.js').BlockRow} BlockRow */

/** @type {Record<string, (spec: any, context: any) => Promise<TrialResult>>} */
export const WORKLOADS = { echo: runEcho };

/**
 * The rows of a trial that failed: one per target, each saying why.
 * @param {TrialSpec} spec
 * @param {Error} error
 * @returns {TrialResult}
 */
export function failedTrial(spec, error) {
  return {
    records: spec.targets.map((target) => errorRecord({ workload: spec.workload, transport: target.transport, size_bytes: spec.size, depth: spec.depth }, error)),
    blocks: [],
  };
}

/**
 * @param {TrialSpec} spec
 * @param {{ probe?: ServerProbe, signal?: AbortSignal }} [context]
 * @returns {Promise<TrialResult>}
 */
export async function runTrial(spec, context = {}) {
  try {
    return await WORKLOADS[spec.workload](spec, context);
  } catch (error) {
    return failedTrial(spec, /** @type {Error} */ (error));
  }
}
