/**
 * The child_process IPC channel with `serialization: 'advanced'` (V8's serializer), a forked child echoing each message:
 * a Buffer is sent as it is (the view's bytes only) and arrives as a Buffer. Echo only; reads with recvmsg, as ipc-json.
 */
/** @type {import('./transport.js').Transport} */
export const ipcAdvanced = {
  name: 'ipc-advanced',
  label: 'IPC advanced',
  what: 'a forked child echoes over the child_process IPC channel (serialization advanced; packets as Buffers)',
  carries: ['messages'],
  platforms: null,
  cpu: 'client: the lane process; server: the echo child the trial forks (its whole process)',
  describe: () => 'ipc-advanced (a forked child, V8 serializer)',
  channel: {
    start: async (options) => (await import('../fixture/message-peer.js')).startIpcPeer({ ...options, serialization: 'advanced' }),
    codec: (payloads) => ({ encode: (index) => payloads.packet(index), decode: (message) => (ArrayBuffer.isView(message) ? message : null) }),
    sharesProcess: false,
    countsReads: false,
  },
};
