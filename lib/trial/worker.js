/**
 * Child-process entry for one trial, or for one lane of a trial: the parent
 * sends a trial spec over IPC, this process runs it and sends back its
 * records and blocks. Server snapshots are asked of the parent, which holds
 * the server's control channel (or asks its own parent). The orchestrator,
 * which draws progress, is never the process being measured.
 *
 * As a lane process (lib/trial/lanes.js), it holds the one lane of its spec
 * and runs the blocks the parent schedules: it says its plan when the
 * workload is ready to measure, answers each `warm` and `measure` request
 * with the block's figures, and finishes the workload on `end`.
 */
import { runTrial } from './trial.js';
import { RunError } from '../core/errors.js';

let nextId = 0;
/** @type {Map<number, { resolve: (stats: any) => void, reject: (error: Error) => void }>} */
const pending = new Map();

/** @type {import('./trial.js').ServerProbe} */
const probe = {
  snapshot() {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      process.send?.({ type: 'snapshot', id });
    });
  },
};

/** @type {((message: any) => void) | undefined} */
let onControl;
/** Aborted when the scheduling parent gives up on the trial, even before this lane has planned. */
const aborted = new AbortController();

/** @type {import('../client/blocks.js').BlockControl} */
const control = {
  serve(plan, executor, onRates) {
    return new Promise((resolve, reject) => {
      if (aborted.signal.aborted) {
        reject(new RunError(String(aborted.signal.reason), 'ERR_ABORTED'));
        return;
      }
      /** @type {import('../client/blocks.js').MeasuredBlock[]} */
      const blocks = [];
      const reply = (/** @type {Record<string, unknown>} */ message) => process.send?.(message);
      onControl = (message) => {
        if (message.type === 'end') {
          onControl = undefined;
          resolve({ blocks, blockUnits: message.blockUnits });
        } else if (message.type === 'rates' && Array.isArray(message.rates)) {
          onRates(message.rates);
        } else if (message.type === 'abort') {
          onControl = undefined;
          reject(new RunError(String(message.reason), 'ERR_ABORTED'));
        } else if (message.type === 'warm' || message.type === 'measure') {
          const step = message.type === 'warm'
            ? executor.warm(message.units).then((ms) => ({ type: 'warmed', ms }))
            : executor.measure(message.units, message.index).then((block) => {
              blocks.push(block);
              return { type: 'measured', block };
            });
          step.then(reply, (/** @type {Error} */ error) => {
            onControl = undefined;
            reply({ type: message.type === 'warm' ? 'warmed' : 'measured', error: error.message, code: /** @type {NodeJS.ErrnoException} */ (error).code });
            reject(error);
          });
        }
      };
      reply({ type: 'plan', plan });
    });
  },
};

process.on('message', async (/** @type {any} */ message) => {
  if (message?.type === 'snapshot') {
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.stats) waiter?.resolve(message.stats);
    else waiter?.reject(new Error(message.error ?? 'no server stats'));
  } else if (message?.type === 'trial') {
    const warn = (/** @type {string} */ line) => process.send?.({ type: 'warn', line });
    const result = await runTrial(message.spec, { probe: message.probe ? probe : undefined, control: message.lane ? control : undefined, warn, signal: message.lane ? aborted.signal : undefined });
    process.send?.({ type: 'result', result }, () => process.disconnect());
  } else if (message?.type === 'abort' && !onControl) {
    aborted.abort(String(message.reason)); // not serving yet: the workload's deadline stops what it is setting up
  } else if (message && onControl) {
    if (message.type === 'abort') aborted.abort(String(message.reason));
    onControl(message);
  }
});
// the parent went away: nothing to report to
process.once('disconnect', () => process.exit(0));
