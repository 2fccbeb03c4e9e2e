/**
 * Misbehaving echo peers for the message transports: entries of a forked
 * child or a worker thread (lib/fixture/message-peer.js starts them by path)
 * and the transforms they echo through.
 */
import { fileURLToPath } from 'node:url';

/** The packet and byte the flipping echoes corrupt. */
export const FLIP = { packet: 2, byte: 5 };
/** The packet the quitting echoes exit at, with EXIT_CODE. */
export const QUIT = { packet: 10, code: 3 };

const here = (/** @type {string} */ name) => fileURLToPath(new URL(name, import.meta.url));
export const FLIP_IPC = here('./message-echo-flip-ipc.js');
export const FLIP_WORKER = here('./message-echo-flip-worker.js');
export const QUIT_IPC = here('./message-echo-quit-ipc.js');

/**
 * Echo packet FLIP.packet with the bits of its byte FLIP.byte flipped: in
 * the bytes a receiver decodes (a base64 string is decoded and encoded again).
 * @param {unknown} message
 * @param {number} index
 */
export function flipOne(message, index) {
  if (index !== FLIP.packet) return message;
  const bytes = typeof message === 'string' ? Buffer.from(message, 'base64') : Buffer.from(/** @type {Uint8Array} */ (message));
  bytes[FLIP.byte] ^= 0xff;
  return typeof message === 'string' ? bytes.toString('base64') : bytes;
}
