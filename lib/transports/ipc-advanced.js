/**
 * The child_process IPC channel with `serialization: 'advanced'` (V8's
 * serializer): a forked child echoes each message
 * (lib/client/message-transports.js). No socket: only echo runs over it.
 */
import { MESSAGE_TRANSPORTS } from '../client/message-transports.js';

/** @type {import('./transport.js').Transport} */
export const ipcAdvanced = {
  name: 'ipc-advanced',
  label: 'IPC advanced',
  what: MESSAGE_TRANSPORTS['ipc-advanced'].what,
  carries: ['messages'],
  platforms: null,
  cpu: 'client: the trial process; server: the echo child the trial forks (its whole process)',
  describe: () => 'ipc-advanced (a forked child, V8 serializer)',
  channel: MESSAGE_TRANSPORTS['ipc-advanced'],
};
