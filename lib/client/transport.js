/**
 * The client side of the one seam where transports differ: a target is reached as its transport's declaration
 * (lib/transports/) says; everything else sees a Target and a connected net.Socket (or, for HTTP, an origin).
 */
import net from 'node:net';
import { RunError } from '../core/errors.js';
import { getTransport } from '../transports/index.js';

/**
 * @typedef {{ host: string, port: number }} Via a proxy on loopback TCP that forwards to the target (nginx)
 * @typedef {{ transport: string, host: string, port: number, via?: Via }} TcpTarget a transport reached at a host and port (TCP)
 * @typedef {{ transport: string, path: string, via?: Via }} UdsTarget a transport reached at a path (a socket file, or `\0name`, a Linux abstract socket)
 * @typedef {TcpTarget | UdsTarget} SocketTarget
 * @typedef {SocketTarget | import('../transports/transport.js').MessageTarget} Target one per transport (lib/transports/): the fields
 *   its declaration reads; a message transport's has none (its trial starts its echo itself)
 */

/** @param {Target} target */
export function describeTarget(target) {
  const direct = getTransport(target.transport).describe(target);
  return target.via ? `${direct} via ${target.via.host}:${target.via.port}` : direct;
}

/**
 * Where an HTTP client sends its requests for a target: the origin (for the connection and the Host header) and, for
 * UDS, the socket file to connect to instead. A target behind a proxy (`via`) is reached at the proxy, over loopback TCP.
 * @param {Target} target
 * @returns {{ origin: string, socketPath?: string }}
 */
export function httpOrigin(target) {
  const at = (/** @type {string} */ host, /** @type {number} */ port) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (target.via) return { origin: at(target.via.host, target.via.port) };
  const http = getTransport(target.transport).http;
  if (!http) throw new RunError(`${target.transport} does not carry HTTP`, 'ERR_TRANSPORT');
  return http(target);
}

/**
 * Where a client that opens its own connections (ioredis) reaches a target: its transport's connect options, host and
 * port or a socket path, with TCP_NODELAY where it applies.
 * @param {Target} target
 * @returns {{ host?: string, port?: number, path?: string, noDelay?: boolean }}
 */
export function socketAddress(target, { noDelay = true } = {}) {
  const how = getTransport(target.transport).connectOptions;
  if (!how || target.via) throw new RunError(`${target.transport} cannot be reached as a socket address here`, 'ERR_TRANSPORT');
  return /** @type {{ host?: string, port?: number, path?: string, noDelay?: boolean }} */ (how(target, { noDelay }));
}

/** Bytes one read may bring, as libuv's default read size. */
const READ_BUFFER_BYTES = 64 * 1024;

/**
 * Where a socket's reads go when it was connected with a `reader`: the current `fn` gets each read as a view of one
 * reused buffer, valid only during the call, so the measured loop makes no garbage for the collector to stop it for.
 * @typedef {{ fn: (chunk: Buffer) => void }} Reader
 */

/**
 * @param {Target} target
 * @param {{ noDelay?: boolean, timeoutMs?: number, reader?: Reader, server?: string }} [options] noDelay applies to TCP only (its declaration reads it);
 *   with a reader, reads go to reader.fn (net's `onread`) and no 'data' event is emitted; server: which one
 *   is expected there, as errors name it (default 'echo')
 * @returns {Promise<net.Socket>}
 */
export function connect(target, { noDelay = true, timeoutMs = 10_000, reader, server = 'echo' } = {}) {
  const how = getTransport(target.transport).connectOptions;
  if (!how) return Promise.reject(new RunError(`${target.transport} is not a byte stream: it cannot be connected as a socket`, 'ERR_TRANSPORT'));
  return new Promise((resolve, reject) => {
    const onread = reader ? { buffer: Buffer.allocUnsafe(READ_BUFFER_BYTES), callback: (/** @type {number} */ n, /** @type {Uint8Array} */ buffer) => { reader.fn(Buffer.from(buffer.buffer, buffer.byteOffset, n)); return true; } } : undefined;
    const socket = net.connect({ ...how(target, { noDelay }), onread });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new RunError(`could not connect to ${describeTarget(target)} within ${timeoutMs} ms`, 'ERR_CONNECT'));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      const code = /** @type {NodeJS.ErrnoException} */ (error).code;
      const hint = code === 'ECONNREFUSED' || code === 'ENOENT' ? ` (is the ${server} server running?)` : '';
      reject(new RunError(`cannot connect to ${describeTarget(target)}: ${code ?? error.message}${hint}`, 'ERR_CONNECT'));
    });
  });
}
