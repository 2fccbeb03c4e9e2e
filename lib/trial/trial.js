/**
 * One trial: dispatch a spec to its workload's client and turn any failure
 * into one record with status=error per target, so callers always get rows.
 */
import { createRecord, errorRecord } from './record.js';
import { getWorkload } from '../workloads/index.js';

/** @typedef {import('../workloads/workload.js').TrialSpec} TrialSpec */
/** @typedef {import('../client/blocks.js').ServerProbe} ServerProbe */
/** @typedef {import('../workloads/workload.js').TrialResult} TrialResult */

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
    const result = await getWorkload(spec.workload).run(spec, context);
    return { records: result.records.map(createRecord), blocks: result.blocks };
  } catch (error) {
    return failedTrial(spec, /** @type {Error} */ (error));
  }
}
