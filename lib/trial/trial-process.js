/**
 * Run one trial in a fresh child process (lib/trial/worker.js), so JIT state and
 * order do not leak between trials. A crash, a kill or a trial that passes
 * its hard limit becomes an error record per target; an abort (Ctrl-C) rejects.
 */
import { fileURLToPath } from 'node:url';
import { startChild } from '../core/child.js';
import { RunError } from '../core/errors.js';
import { failedTrial } from './trial.js';

const WORKER = fileURLToPath(new URL('./worker.js', import.meta.url));

/** After its limit, a trial process has this long to report its own timeout before it is killed. */
export const GRACE_MS = 5000;

/**
 * @param {import('./trial.js').TrialSpec} spec
 * @param {object} context
 * @param {{ snapshot: () => Promise<import('../fixture/server-stats.js').ServerStats> }} [context.server] answers snapshots
 * @param {string[]} [context.prefix] e.g. ['taskset', '-c', '1']
 * @param {string} [context.execPath] the Node executable to run the trial with (default: this process's)
 * @param {number} context.limitMs the trial's limit (--trial-timeout), which the trial enforces itself
 * @param {number} [context.graceMs] kill the child if it has not ended this long after its limit
 * @param {AbortSignal} [context.signal]
 * @param {(line: string) => void} [context.warn] what the trial says to the person running it, at once
 * @returns {Promise<import('./trial.js').TrialResult>}
 */
export function runTrialProcess(spec, { server, prefix = [], execPath = process.execPath, limitMs, graceMs = GRACE_MS, signal, warn }) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new RunError('aborted', 'ERR_ABORTED'));
      return;
    }
    // own process group: a terminal's Ctrl-C reaches the orchestrator only, which decides
    const child = startChild({ what: 'the trial process', argv: [execPath, WORKER], prefix });
    /** @type {import('./trial.js').TrialResult | undefined} */
    let result;
    let why = '';
    const kill = (/** @type {string} */ reason) => {
      why = reason;
      child.kill();
    };
    const timer = setTimeout(() => kill(`trial exceeded its limit of ${limitMs / 1000} s (--trial-timeout) and its process had not ended ${graceMs / 1000} s later; it was killed`), limitMs + graceMs);
    const onAbort = () => kill('aborted');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.channel.on('result', (message) => { result = message.result; });
    child.channel.on('warn', (message) => { if (typeof message.line === 'string') warn?.(message.line); });
    if (server) child.channel.serve('snapshot', () => server.snapshot());
    // after the last IPC message and stderr, and also after a failed spawn
    child.exited.then((exit) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (why === 'aborted') reject(new RunError('aborted', 'ERR_ABORTED'));
      else if (result) resolve(result);
      // a native crash (V8 out of memory) or EMFILE while loading: one line naming the limit, not a stack frame
      else resolve(failedTrial(spec, new Error(why || child.endWords(exit, ' before reporting').replace(/^the trial process (?:was )?/, 'trial process '))));
    });
    child.channel.send('trial', { spec, probe: Boolean(server) });
  });
}
