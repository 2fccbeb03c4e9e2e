/**
 * The sweep loop: one echo server for the whole sweep, every trial in its
 * own process, rows appended as they finish. The trial runner and the server
 * starter are injected, so the logic can be tested with fakes beside the
 * real end-to-end tests.
 */
import { errorRecord } from '../record.js';
import { jobKey, planTrials } from './schedule.js';

/**
 * @typedef {object} SweepServer
 * @property {{ host: string, port: number }} tcp
 * @property {{ path: string }} uds
 * @property {() => boolean} alive
 * @property {() => Promise<void>} stop
 */

/**
 * @typedef {object} SweepDeps
 * @property {() => Promise<SweepServer>} startServer
 * @property {(spec: import('../trial.js').TrialSpec, server: SweepServer) => Promise<import('../record.js').TrialRecord>} runTrial rejects only when aborted
 * @property {{ append: (row: Record<string, unknown>) => void }} log
 * @property {Set<string>} [done] keys of trials already recorded (resume)
 * @property {AbortSignal} [signal]
 * @property {(job: import('./schedule.js').Job, index: number, total: number) => void} [onStart]
 * @property {(job: import('./schedule.js').Job, row: Record<string, any>, index: number, total: number) => void} [onEnd]
 * @property {(message: string) => void} [onNote]
 */

/**
 * @param {import('./spec.js').SweepSpec} spec
 * @param {import('./schedule.js').Job} job
 * @param {SweepServer} server
 * @returns {import('../trial.js').TrialSpec}
 */
export function trialSpec(spec, job, server) {
  return {
    workload: spec.workload,
    target: job.transport === 'tcp' ? { transport: 'tcp', ...server.tcp } : { transport: 'uds', path: server.uds.path },
    size: job.size,
    depth: job.depth,
    measure: spec.measure,
    warmup: spec.warmup,
    seed: spec.seed,
    noDelay: spec.noDelay,
    timeoutMs: spec.timeoutMs,
    maxMs: spec.trialTimeoutMs,
    greeting: spec.greeting,
  };
}

/**
 * @param {import('./spec.js').SweepSpec} spec
 * @param {SweepDeps} deps
 * @returns {Promise<{ rows: Record<string, any>[], interrupted: boolean, planned: number }>}
 */
export async function runSweep(spec, { startServer, runTrial, log, done = new Set(), signal, onStart, onEnd, onNote }) {
  const plan = planTrials(spec);
  const todo = plan.filter((job) => !done.has(jobKey(job)));
  /** @type {Record<string, any>[]} */
  const rows = [];
  let interrupted = false;
  let server = todo.length ? await startServer() : undefined;
  try {
    for (const [index, job] of todo.entries()) {
      if (signal?.aborted) {
        interrupted = true;
        break;
      }
      if (!server || !server.alive()) {
        onNote?.('echo server is gone; starting a new one');
        server = await startServer();
      }
      onStart?.(job, index, todo.length);
      let record;
      try {
        record = await runTrial(trialSpec(spec, job, server), server);
      } catch (error) {
        if (signal?.aborted) {
          interrupted = true;
          break;
        }
        throw error;
      }
      if (!server.alive()) {
        record = errorRecord({ workload: spec.workload, transport: job.transport, size_bytes: job.size, depth: job.depth }, new Error('the echo server died during the trial; it was restarted'));
        onNote?.('echo server died during a trial; restarting it');
        server = await startServer();
      }
      const row = { run: job.run, order: job.order, ...record };
      log.append(row);
      rows.push(row);
      onEnd?.(job, row, index, todo.length);
    }
  } finally {
    await server?.stop();
  }
  return { rows, interrupted, planned: plan.length };
}
