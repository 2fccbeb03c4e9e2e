/**
 * A worker thread's MessagePort, the worker (lib/fixture/message-peer.js) echoing each message. postMessage copies
 * (structured clone; nothing transferred, as a sender keeping its data does), and a clone of a view copies its whole
 * ArrayBuffer, so each packet is a Uint8Array of its own, made before anything is timed. Both ends share the lane
 * process: its CPU and counters less the worker thread's are the client's. Echo only.
 */
/** @type {import('./transport.js').Transport} */
export const worker = {
  name: 'worker',
  label: 'worker',
  what: 'a worker thread echoes over its MessagePort (postMessage, copied)',
  carries: ['messages'],
  platforms: null,
  cpu: 'server: the worker thread alone (/proc/thread-self/schedstat, else process.threadCpuUsage); client: the lane process less that thread',
  describe: () => 'worker (a worker thread, postMessage)',
  channel: {
    start: async ({ startTimeoutMs, entry, cpus }) => (await import('../fixture/message-peer.js')).startWorkerPeer({ startTimeoutMs, entry, cpus }),
    codec: (payloads) => {
      const copies = Array.from({ length: payloads.count }, (_, i) => Uint8Array.from(payloads.packet(i)));
      return { encode: (index) => copies[index % payloads.count], decode: (message) => (ArrayBuffer.isView(message) ? message : null) };
    },
    sharesProcess: true,
    countsReads: true,
  },
};
