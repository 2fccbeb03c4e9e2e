/**
 * The message transports: channels Node gives between two of its own
 * event loops, where the socket transports (lib/client/transport.js) give
 * a byte stream between two processes. Each is declared here: who echoes at
 * the far end (lib/fixture/message-peer.js), what a packet travels as (its
 * codec), and how its CPU and counters are charged.
 *
 * - `ipc-json`: a forked child on the child_process IPC channel with
 *   `serialization: 'json'`. JSON has no bytes: a Buffer given to
 *   `process.send` arrives as `{ type: 'Buffer', data: [...] }`, an array of
 *   numbers about 3.6 times its size, that the receiver must rebuild. A
 *   service that sends bytes over JSON IPC sends them as a base64 string,
 *   as this client does: it encodes each packet as it sends it and decodes
 *   each echo, inside the timed window, as a service would.
 * - `ipc-advanced`: the same with `serialization: 'advanced'` (V8's
 *   serializer): a Buffer is sent as it is (the bytes of the view only) and
 *   arrives as a Buffer.
 * - `worker`: a worker thread on its MessagePort. postMessage copies (the
 *   structured clone); nothing is transferred, as a sender that keeps its
 *   data does. A structured clone of a view copies its whole ArrayBuffer,
 *   so each packet is sent as a Uint8Array of its own, made before anything
 *   is timed.
 *
 * Both IPC channels read with recvmsg, which /proc/PID/io does not count
 * (lib/core/counters.js): their read-call figures are left empty. The
 * worker thread shares the client's process: the process's CPU and
 * counters, less the worker thread's own, are the client's.
 */
import { startIpcPeer, startWorkerPeer } from '../fixture/message-peer.js';

/** @typedef {'ipc-json' | 'ipc-advanced' | 'worker'} MessageTransport */
/** @typedef {{ transport: MessageTransport, via?: undefined }} MessageTarget no address, and no proxy in front */

/**
 * @typedef {object} MessageTransportDeclaration
 * @property {string} what in words
 * @property {(options: { execPath?: string, startTimeoutMs?: number, entry?: string, cpus?: string }) => Promise<import('../fixture/message-peer.js').Peer>} start on `cpus` (a taskset list) where given
 * @property {(payloads: import('./payload.js').Payloads) => import('./message-pipeline.js').Codec} codec
 * @property {boolean} sharesProcess the echo runs in the client's process: charge the client the process less the echo
 * @property {boolean} countsReads whether /proc/PID/io counts the channel's read calls
 */

/** @param {unknown} message */
const viewOf = (message) => (ArrayBuffer.isView(message) ? message : null);

/** @type {Record<MessageTransport, MessageTransportDeclaration>} */
export const MESSAGE_TRANSPORTS = {
  'ipc-json': {
    what: 'a forked child echoes over the child_process IPC channel (serialization json; packets as base64 strings)',
    start: (options) => startIpcPeer({ ...options, serialization: 'json' }),
    codec: (payloads) => ({
      encode: (index) => payloads.packet(index).toString('base64'),
      decode: (message) => (typeof message === 'string' ? Buffer.from(message, 'base64') : null),
    }),
    sharesProcess: false,
    countsReads: false,
  },
  'ipc-advanced': {
    what: 'a forked child echoes over the child_process IPC channel (serialization advanced; packets as Buffers)',
    start: (options) => startIpcPeer({ ...options, serialization: 'advanced' }),
    codec: (payloads) => ({ encode: (index) => payloads.packet(index), decode: viewOf }),
    sharesProcess: false,
    countsReads: false,
  },
  worker: {
    what: 'a worker thread echoes over its MessagePort (postMessage, copied)',
    start: ({ startTimeoutMs, entry, cpus }) => startWorkerPeer({ startTimeoutMs, entry, cpus }),
    codec: (payloads) => {
      const copies = Array.from({ length: payloads.count }, (_, i) => Uint8Array.from(payloads.packet(i)));
      return { encode: (index) => copies[index % payloads.count], decode: viewOf };
    },
    sharesProcess: true,
    countsReads: true,
  },
};

export const MESSAGE_TRANSPORT_NAMES = /** @type {MessageTransport[]} */ (Object.keys(MESSAGE_TRANSPORTS));

/**
 * @param {unknown} name
 * @returns {name is MessageTransport}
 */
function isMessageTransport(name) {
  return typeof name === 'string' && Object.hasOwn(MESSAGE_TRANSPORTS, name);
}

/**
 * @param {{ transport: string }} target
 * @returns {target is MessageTarget}
 */
export function isMessageTarget(target) {
  return isMessageTransport(target.transport);
}
