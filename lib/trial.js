/**
 * One trial: dispatch a spec to its workload and turn any failure into a
 * record with status=error, so callers always get a row.
 */
import { errorRecord } from './record.js';
import { runEcho } from './workloads/echo.js';

/** @typedef {import('./workloads/echo.js').EchoSpec} TrialSpec */
/** @typedef {import('./workloads/echo.js').ServerProbe} ServerProbe */

/** @type {Record<string, (spec: any, context: any) => Promise<import('./record.js').TrialRecord>>} */
export const WORKLOADS = { echo: runEcho };

/**
 * @param {TrialSpec} spec
 * @param {{ probe?: ServerProbe, signal?: AbortSignal }} [context]
 * @returns {Promise<import('./record.js').TrialRecord>}
 */
export async function runTrial(spec, context = {}) {
  try {
    return await WORKLOADS[spec.workload](spec, context);
  } catch (error) {
    return errorRecord({ workload: spec.workload, transport: spec.target.transport, size_bytes: spec.size, depth: spec.depth }, /** @type {Error} */ (error));
  }
}
