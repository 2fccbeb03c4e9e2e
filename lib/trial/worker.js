/**
 * A lane process (./lanes.js): it gets a one-target spec over IPC, holds that lane, says its plan when ready, answers
 * each `warm` and `measure` request with the block's figures, finishes on `end` and sends back its records and blocks.
 * Server snapshots are asked of the parent, which holds the server's control channel.
 */
import { runTrial } from './trial.js';
import { onParentGone, parentChannel } from '../core/child.js';
import { RunError } from '../core/errors.js';

const parent = /** @type {import('../core/child.js').Channel} */ (parentChannel());

/** @type {import('../client/blocks.js').ServerProbe} */
const probe = { snapshot: () => parent.request('snapshot') };

/** @type {((message: any) => void) | undefined} ends the blocks being served: `end` or `abort` */
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
      /** @param {Promise<any>} step a failed block fails the lane */
      const failing = (step) => step.catch((/** @type {Error} */ error) => {
        onControl = undefined;
        reject(error);
        throw error;
      });
      parent.serve('warm', (message) => failing(executor.warm(message.units)));
      parent.serve('measure', (message) => failing(executor.measure(message.units, message.index).then((block) => {
        blocks.push(block);
        return block;
      })));
      parent.on('rates', (message) => { if (onControl && Array.isArray(message.rates)) onRates(message.rates); });
      onControl = (message) => {
        onControl = undefined;
        if (message.type === 'end') resolve({ blocks, blockUnits: message.blockUnits });
        else reject(new RunError(String(message.reason), 'ERR_ABORTED'));
      };
      parent.send('plan', { plan });
    });
  },
};

parent.on('trial', async (message) => {
  const warn = (/** @type {string} */ line) => parent.send('warn', { line });
  const result = await runTrial(message.spec, { probe: message.probe ? probe : undefined, control, warn, signal: aborted.signal });
  parent.send('result', { result }, () => process.disconnect());
});
parent.on('end', (message) => onControl?.(message));
// not serving yet: the workload's deadline stops what it is setting up
parent.on('abort', (message) => {
  aborted.abort(String(message.reason));
  onControl?.(message);
});
// the parent went away: nothing to report to
onParentGone();
