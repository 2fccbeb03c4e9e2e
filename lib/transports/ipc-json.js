/**
 * The child_process IPC channel with `serialization: 'json'`, a forked child echoing each message; echo only. JSON has
 * no bytes (a Buffer arrives as `{ type: 'Buffer', data: [...] }`, about 3.6 times its size), so, as a service would,
 * this client sends each packet as base64, encoding and decoding inside the timed window. The channel reads with
 * recvmsg, which /proc/PID/io does not count (lib/core/counters.js): its read-call figures are empty.
 */
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
    start: async (options) => (await import('../fixture/message-peer.js')).startIpcPeer({ ...options, serialization: 'json' }),
    codec: (payloads) => ({
      encode: (index) => payloads.packet(index).toString('base64'),
      decode: (message) => (typeof message === 'string' ? Buffer.from(message, 'base64') : null),
    }),
    sharesProcess: false,
    countsReads: false,
  },
};
