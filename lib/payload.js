/**
 * Packet payloads: seeded random bytes that differ from packet to packet.
 *
 * One random pool of `count × size` bytes is made before anything is timed.
 * Packet i is the i-th `size`-byte slice of the pool, wrapping after `count`
 * packets, so neighbours always differ and the packets in flight are always
 * distinct (count > depth). Consecutive packets lie side by side in the pool,
 * so the echoed byte stream can be checked against the pool in one compare
 * per contiguous run, however reads split or coalesce. Views are made up
 * front: sending a packet costs no allocation.
 */
import { seededBytes } from './random.js';
import { KiB } from './units.js';

/** Pool size to aim for: small enough to stay in cache, as a real sender's buffers would. */
const POOL_BYTES = 256 * KiB;
/** At most this many distinct packets. */
const MAX_COUNT = 65536;

/**
 * @typedef {object} Payloads
 * @property {number} size bytes per packet
 * @property {number} count distinct packets; packet i is packet i % count
 * @property {Buffer} pool count × size random bytes, packet after packet
 * @property {(index: number) => Buffer} packet the bytes of packet `index`
 */

/**
 * @param {number} size bytes per packet
 * @param {number | string} seed
 * @param {number} [depth] packets in flight at most
 * @returns {Payloads}
 */
export function createPayloads(size, seed, depth = 1) {
  const count = Math.max(depth + 1, Math.min(MAX_COUNT, Math.floor(POOL_BYTES / size)));
  const pool = seededBytes(seed, count * size, 'payload');
  const views = Array.from({ length: count }, (_, i) => pool.subarray(i * size, (i + 1) * size));
  return { size, count, pool, packet: (index) => views[index % count] };
}
