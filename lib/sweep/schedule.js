/**
 * The trial schedule: every (size, depth, transport) job once per run, in a
 * seeded random order within each run, so drift hits TCP and UDS alike and
 * the order is reproducible from the seed.
 */
import { createRandom, shuffle } from '../random.js';

/**
 * @typedef {object} Job
 * @property {number} run
 * @property {number} order position within its run, from 0
 * @property {number} size
 * @property {number} depth
 * @property {'tcp' | 'uds'} transport
 */

/**
 * @param {{ sizes: number[], depths: number[], transports: ('tcp' | 'uds')[], runs: number, seed: number }} spec
 * @returns {Job[]}
 */
export function planTrials(spec) {
  const random = createRandom(spec.seed, 'order');
  const jobs = [];
  for (const size of spec.sizes) {
    for (const depth of spec.depths) {
      for (const transport of spec.transports) jobs.push({ size, depth, transport });
    }
  }
  /** @type {Job[]} */
  const plan = [];
  for (let run = 0; run < spec.runs; run++) {
    shuffle(jobs, random).forEach((job, order) => plan.push({ run, order, ...job }));
  }
  return plan;
}

/**
 * The identity of a trial, for resume.
 * @param {Record<string, any>} job a Job or a trial row
 */
export function jobKey(job) {
  return `${job.run}|${job.size ?? job.size_bytes}|${job.depth}|${job.transport}`;
}
