/**
 * Packet payloads: seeded random bytes that differ from packet to packet.
 *
 * One random pool of `size + WINDOWS - 1` bytes is made before anything is
 * timed; packet i is the `size`-byte window starting at a per-packet offset
 * that walks all WINDOWS offsets before repeating. Windows are zero-copy
 * views, so writing a packet costs no allocation on the timed path, and the
 * verifier knows exactly which bytes each echo must carry.
 */
import { seededBytes } from './random.js';

/** Number of distinct windows (packets repeat only after this many). */
export const WINDOWS = 65536;
/** Odd, hence coprime with WINDOWS: i → offset is a permutation. */
const STRIDE = 40503;

/**
 * @typedef {object} Payloads
 * @property {number} size bytes per packet
 * @property {(index: number) => Buffer} packet the bytes of packet `index`
 */

/**
 * @param {number} size bytes per packet
 * @param {number | string} seed
 * @returns {Payloads}
 */
export function createPayloads(size, seed) {
  const pool = seededBytes(seed, size + WINDOWS - 1, 'payload');
  const start = pool.readUInt16LE(0) % WINDOWS;
  return {
    size,
    packet(index) {
      const offset = (start + (index % WINDOWS) * STRIDE) % WINDOWS;
      return pool.subarray(offset, offset + size);
    },
  };
}
