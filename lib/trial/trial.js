/**
 * A trial's client in this process: a spec dispatched to its workload's client, any failure turned into an error
 * record per target, so callers always get rows (a lane process, ./worker.js, runs its one lane so). Each record says
 * which Node ran it (node_version); a spec naming another Node than the one running fails without measuring.
 */
import { createRecord, errorRecord } from './record.js';
import { getWorkload } from '../workloads/index.js';

/** @typedef {import('../workloads/workload.js').TrialSpec} TrialSpec */
/** @typedef {import('../workloads/workload.js').TrialResult} TrialResult */

/**
 * The rows of a trial that failed: one per target, each saying why.
 * @param {TrialSpec} spec
 * @param {Error} error
 * @returns {TrialResult}
 */
export function failedTrial(spec, error) {
  return {
    records: spec.targets.map((target) => errorRecord({ workload: spec.workload, node_version: spec.node_version ?? process.version, transport: target.transport, size_bytes: spec.size, depth: spec.depth }, error)),
    blocks: [],
  };
}

/**
 * @param {TrialSpec} spec
 * @param {import('../workloads/workload.js').TrialContext} [context] `control`: this process is one lane of a
 *   trial, its blocks scheduled by the parent
 * @returns {Promise<TrialResult>}
 */
export async function runTrial(spec, context = {}) {
  if (spec.node_version !== undefined && spec.node_version !== process.version) {
    return failedTrial(spec, new Error(`the lane process runs Node ${process.version}, not ${spec.node_version} as its job says`));
  }
  try {
    const result = await getWorkload(spec.workload).run(spec, context);
    return { records: result.records.map((r) => createRecord({ ...r, node_version: process.version })), blocks: result.blocks };
  } catch (error) {
    return failedTrial(spec, /** @type {Error} */ (error));
  }
}
