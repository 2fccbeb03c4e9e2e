/**
 * A worker thread's MessagePort: the trial starts a worker that echoes each
 * message (lib/client/message-transports.js). Both ends share the trial
 * process. No socket: only echo runs over it.
 */
import { MESSAGE_TRANSPORTS } from '../client/message-transports.js';

/** @type {import('./transport.js').Transport} */
export const worker = {
  name: 'worker',
  label: 'worker',
  what: MESSAGE_TRANSPORTS.worker.what,
  carries: ['messages'],
  platforms: null,
  cpu: 'server: the worker thread alone (/proc/thread-self/schedstat, else process.threadCpuUsage); client: the trial process less that thread',
  describe: () => 'worker (a worker thread, postMessage)',
  channel: MESSAGE_TRANSPORTS.worker,
};
