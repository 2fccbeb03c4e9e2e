/**
 * Child-process entry for one sweep trial: the parent sends a trial spec over
 * IPC, this process runs it and sends back its records and blocks. Server snapshots are
 * asked of the parent, which holds the server's control channel. The
 * orchestrator, which draws progress, is never the process being measured.
 */
import { runTrial } from './trial.js';

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

process.on('message', async (/** @type {any} */ message) => {
  if (message?.type === 'snapshot') {
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.stats) waiter?.resolve(message.stats);
    else waiter?.reject(new Error(message.error ?? 'no server stats'));
  } else if (message?.type === 'trial') {
    const result = await runTrial(message.spec, { probe: message.probe ? probe : undefined });
    process.send?.({ type: 'result', result }, () => process.disconnect());
  }
});
// the parent went away: nothing to report to
process.once('disconnect', () => process.exit(0));
