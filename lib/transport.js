/**
 * The client side of the one seam where TCP and UDS differ. Everything else
 * sees a Target and a connected net.Socket.
 */
import net from 'node:net';
import { RunError } from './errors.js';

/**
 * @typedef {{ transport: 'tcp', host: string, port: number }} TcpTarget
 * @typedef {{ transport: 'uds', path: string }} UdsTarget
 * @typedef {TcpTarget | UdsTarget} Target
 */

/** @type {readonly ('tcp' | 'uds')[]} */
export const TRANSPORTS = ['tcp', 'uds'];

/** @param {Target} target */
export function describeTarget(target) {
  return target.transport === 'tcp' ? `tcp ${target.host}:${target.port}` : `uds ${target.path}`;
}

/**
 * Connect to an echo server.
 * @param {Target} target
 * @param {{ noDelay?: boolean, timeoutMs?: number }} [options] noDelay applies to TCP only
 * @returns {Promise<net.Socket>}
 */
export function connect(target, { noDelay = true, timeoutMs = 10_000 } = {}) {
  return new Promise((resolve, reject) => {
    const socket = target.transport === 'tcp'
      ? net.connect({ host: target.host, port: target.port, noDelay })
      : net.connect({ path: target.path });
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
      const hint = code === 'ECONNREFUSED' || code === 'ENOENT' ? ' (is the echo server running?)' : '';
      reject(new RunError(`cannot connect to ${describeTarget(target)}: ${code ?? error.message}${hint}`, 'ERR_CONNECT'));
    });
  });
}
