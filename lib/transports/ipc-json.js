/**
 * The child_process IPC channel with `serialization: 'json'`: a forked child
 * (lib/fixture/message-peer.js) echoes each message. No socket: only echo
 * runs over it. JSON has no bytes: a Buffer given to `process.send` arrives
 * as `{ type: 'Buffer', data: [...] }`, an array of numbers about 3.6 times
 * its size, that the receiver must rebuild. A service that sends bytes over
 * JSON IPC sends them as a base64 string, as this client does: it encodes
 * each packet as it sends it and decodes each echo, inside the timed window,
 * as a service would. The channel reads with recvmsg, which /proc/PID/io
 * does not count (lib/core/counters.js): its read-call figures are empty.
 */
import { startIpcPeer } from '../fixture/message-peer.js';

/** @type {import('./transport.js').Transport} */
export const ipcJson = {
  name: 'ipc-json',
  label: 'IPC JSON',
  what: 'a forked child echoes over the child_process IPC channel (serialization json; packets as base64 strings)',
  carries: ['messages'],
  platforms: null,
  cpu: 'client: the lane process; server: the echo child the trial forks (its whole process)',
  describe: () => 'ipc-json (a forked child, JSON)',
  channel: {
    start: (options) => startIpcPeer({ ...options, serialization: 'json' }),
    codec: (payloads) => ({
      encode: (index) => payloads.packet(index).toString('base64'),
      decode: (message) => (typeof message === 'string' ? Buffer.from(message, 'base64') : null),
    }),
    sharesProcess: false,
    countsReads: false,
  },
};
