/**
 * The trial schedule. A job is one trial: one (size, depth) group of one run under one Node version, measuring every
 * chosen transport in alternating blocks (pairing "blocks") or one transport alone (pairing "trials", as in 2014).
 * Jobs run in a seeded random order within each run, and the transport opening the block sequence is drawn from the
 * seed too, so the order is reproducible and drift hits every transport and Node version alike. With one Node
 * version the plan is the one a sweep without the axis makes.
 */
import { createRandom, shuffle } from '../core/random.js';

/**
 * @typedef {object} Job
 * @property {number} run
 * @property {number} order position within its run, from 0
 * @property {string} node the Node version whose server and lane processes it runs on (v20.20.2)
 * @property {number} size
 * @property {number} depth
 * @property {string[]} transports measured in this trial, the first opening the block sequence
 */

/**
 * @typedef {Pick<import('./spec.js').SweepSpec, 'sizes' | 'depths' | 'transports' | 'pairing' | 'runs' | 'seed'> & { nodes?: string[] }} PlanSpec
 *   nodes: the Node versions, the baseline first (default: the Node running this process)
 */

/**
 * Jobs of one run: every group (and transport, when not paired) once.
 * @param {PlanSpec} spec
 */
function groupJobs(spec) {
  /** @type {{ node: string, size: number, depth: number, transports: string[] }[]} */
  const jobs = [];
  for (const node of spec.nodes ?? [process.version]) {
    for (const size of spec.sizes) {
      for (const depth of spec.depths) {
        if (spec.pairing === 'blocks') jobs.push({ node, size, depth, transports: [...spec.transports] });
        else for (const transport of spec.transports) jobs.push({ node, size, depth, transports: [transport] });
      }
    }
  }
  return jobs;
}

/**
 * @param {PlanSpec} spec
 */
export function planTrials(spec) {
  const random = createRandom(spec.seed, 'order');
  const jobs = groupJobs(spec);
  /** @type {Job[]} */
  const plan = [];
  for (let run = 0; run < spec.runs; run++) {
    shuffle(jobs, random).forEach((job, order) => plan.push({ run, order, ...job, transports: openingOrder(job.transports, random) }));
  }
  return plan;
}

/**
 * Extra runs of some groups (for a precision), seeded random order, each under every Node version to keep them paired.
 * @param {{ size: number, depth: number, run: number }[]} groups the next run number of each
 * @param {PlanSpec} spec
 * @param {number} round which extra round this is (seeds its order)
 */
export function planExtraRuns(groups, spec, round) {
  const random = createRandom(spec.seed, `extra-${round}`);
  const jobs = groups.flatMap((g) => groupJobs({ ...spec, sizes: [g.size], depths: [g.depth] }).map((job) => ({ ...job, run: g.run })));
  return shuffle(jobs, random).map((job, order) => ({ ...job, order, transports: openingOrder(job.transports, random) }));
}

/**
 * The transports in the order that opens the block sequence, drawn so that none always goes first: a coin with two, a
 * seeded shuffle with more. Blocks then run A B C, C B A … (lib/client/blocks.js), so every transport's blocks sit as
 * close to TCP's, on average, as to any other's.
 * @param {string[]} transports
 * @param {() => number} random
 */
export function openingOrder(transports, random) {
  if (transports.length > 2) return shuffle([...transports], random);
  return transports.length > 1 && random() < 0.5 ? [...transports].reverse() : [...transports];
}

/**
 * The identity of a trial row, for resume: run, Node version, size, depth and transport.
 * @param {Record<string, any>} row a trial row
 */
export function rowKey(row) {
  return `${row.run}|${row.node_version}|${row.size_bytes}|${row.depth}|${row.transport}`;
}

/**
 * The row keys a job writes, one per transport.
 * @param {Job} job
 */
export function jobKeys(job) {
  return job.transports.map((transport) => rowKey({ run: job.run, node_version: job.node, size_bytes: job.size, depth: job.depth, transport }));
}

/**
 * The identity of a (size, depth) group, measured under every Node version.
 * @param {{ size_bytes?: number, size?: number, depth: number }} row
 */
export function groupKey(row) {
  return `${row.size_bytes ?? row.size}|${row.depth}`;
}

/**
 * The (size, depth) groups whose last trial failed: a row of their highest run has status error (superseded rows aside).
 * @param {Record<string, any>[]} rows trial rows
 * @returns {Set<string>} their groupKey()s
 */
export function failingGroups(rows) {
  /** @type {Map<string, { run: number, failed: boolean }>} */
  const last = new Map();
  for (const row of rows) {
    if (row.status === 'superseded') continue;
    const key = groupKey(/** @type {any} */ (row));
    const run = Number(row.run);
    const seen = last.get(key);
    if (!seen || run > seen.run) last.set(key, { run, failed: row.status === 'error' });
    else if (run === seen.run && row.status === 'error') seen.failed = true;
  }
  return new Set([...last].filter(([, group]) => group.failed).map(([key]) => key));
}
