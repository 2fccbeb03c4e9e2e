/**
 * The child_process IPC channel with `serialization: 'json'`: a forked child
 * echoes each message (lib/client/message-transports.js says what a packet
 * travels as, and how CPU is charged). No socket: only echo runs over it.
 */
import { MESSAGE_TRANSPORTS } from '../client/message-transports.js';

/** @type {import('./transport.js').Transport} */
export const ipcJson = {
  name: 'ipc-json',
  label: 'IPC JSON',
  what: MESSAGE_TRANSPORTS['ipc-json'].what,
  carries: ['messages'],
  platforms: null,
  cpu: 'client: the trial process; server: the echo child the trial forks (its whole process)',
  describe: () => 'ipc-json (a forked child, JSON)',
  channel: MESSAGE_TRANSPORTS['ipc-json'],
};
