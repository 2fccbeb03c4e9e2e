/**
 * Packet payloads: seeded random bytes in one pool made before anything is timed, packet i a view of it made up front
 * (no allocation per send). Up to LARGE_POOL bytes packets lie side by side, so the echoed stream is checked in one
 * compare per contiguous run however reads split; larger ones overlap, `stride` bytes apart, and are checked one by one.
 * Any `window` = min(depth, 256^size) consecutive packets (cyclically) are pairwise distinct: 1 B and 2 B pools are a
 * seeded permutation of every value; from 3 B on, a packet equal to one within `window - 1` of it is drawn again.
 */
import { createByteStream, createRandom, shuffle } from '../core/random.js';
import { KiB, MiB } from '../core/units.js';

/** Pool size to aim for: small enough to stay in cache, as a real sender's buffers would. */
const POOL_BYTES = 256 * KiB;
/** At most this many distinct packets (unless depth needs more). */
const MAX_COUNT = 65536;
/** Bound on redraws of one packet; at 3 B and more a redraw is rarely needed even once. */
const MAX_REDRAWS = 1000;
/** Side-by-side packets up to this many pool bytes; overlapping ones above. */
const LARGE_POOL = 8 * MiB;
/** How far apart overlapping packets start. */
const STRIDE = 4 * KiB;

/**
 * @typedef {object} Payloads
 * @property {number} size bytes per packet
 * @property {number} count packets in the pool; packet i is packet i % count
 * @property {number} window any this many consecutive packets are pairwise distinct
 * @property {Buffer} pool random bytes the packets are views of
 * @property {boolean} contiguous packet i + 1 starts where packet i ends in the pool
 * @property {(index: number) => number} offset where packet `index` starts in the pool
 * @property {(index: number) => Buffer} packet the bytes of packet `index`
 */

/**
 * Every value of a 1- or 2-byte packet once, in a seeded random order.
 * @param {number} size 1 or 2
 * @param {number | string} seed
 */
function permutationPool(size, seed) {
  const values = shuffle(Array.from({ length: 256 ** size }, (_, v) => v), createRandom(seed, 'payload-order'));
  const pool = Buffer.alloc(values.length * size);
  values.forEach((v, i) => (size === 1 ? pool.writeUInt8(v, i) : pool.writeUInt16BE(v, i * size)));
  return pool;
}

/**
 * Random packets, each redrawn while it equals an already drawn one fewer than `window` places away (cyclically).
 * @param {number} size at least 3
 * @param {number} count
 * @param {number} window
 * @param {number | string} seed
 */
function randomPool(size, count, window, seed) {
  const bytes = createByteStream(seed, 'payload');
  const pool = bytes(count * size);
  if (window < 2) return pool; // no other packet is less than one place away: nothing to compare
  // the first 6 bytes as a number: equal packets have equal keys; equal keys are compared whole
  const keyBytes = Math.min(size, 6);
  const keyOf = (/** @type {number} */ i) => pool.readUIntBE(i * size, keyBytes);
  /** @type {Map<number, number[]>} */
  const seen = new Map();
  for (let i = 0; i < count; i++) {
    for (let redraw = 0; ; redraw++) {
      const near = (seen.get(keyOf(i)) ?? []).some((j) => {
        const distance = Math.min(i - j, count - (i - j));
        return distance < window && pool.compare(pool, j * size, (j + 1) * size, i * size, (i + 1) * size) === 0;
      });
      if (!near) break;
      if (redraw >= MAX_REDRAWS) throw new Error(`could not draw ${count} distinct packets of ${size} B`);
      bytes(size).copy(pool, i * size);
    }
    const key = keyOf(i);
    const equalKeys = seen.get(key);
    if (equalKeys) equalKeys.push(i);
    else seen.set(key, [i]);
  }
  return pool;
}

/**
 * @param {number} size bytes per packet
 * @param {number | string} seed
 * @param {number} [depth] packets in flight at most
 * @returns {Payloads}
 */
export function createPayloads(size, seed, depth = 1) {
  const wanted = Math.max(depth, Math.min(MAX_COUNT, Math.floor(POOL_BYTES / size)), 2);
  if (size > 2 && wanted * size > LARGE_POOL) return overlappingPayloads(size, wanted, seed);
  const window = size <= 2 ? Math.min(depth, 256 ** size) : depth;
  const pool = size <= 2 ? permutationPool(size, seed) : randomPool(size, wanted, window, seed);
  const count = pool.length / size;
  const views = Array.from({ length: count }, (_, i) => pool.subarray(i * size, (i + 1) * size));
  return { size, count, window, pool, contiguous: true, offset: (index) => (index % count) * size, packet: (index) => views[index % count] };
}

/**
 * Large packets as overlapping views `STRIDE` bytes apart: random bytes shifted by a multiple of 4 KiB are equal with a
 * chance too small to matter, and a check at creation makes sure of it.
 * @param {number} size
 * @param {number} count
 * @param {number | string} seed
 * @returns {Payloads}
 */
function overlappingPayloads(size, count, seed) {
  const pool = createByteStream(seed, 'payload')(size + (count - 1) * STRIDE);
  const views = Array.from({ length: count }, (_, i) => pool.subarray(i * STRIDE, i * STRIDE + size));
  for (let i = 0; i < count; i++) {
    for (let j = 0; j < i; j++) {
      if (views[i].equals(views[j])) throw new Error(`packets ${j} and ${i} of ${size} B came out equal; choose another seed`);
    }
  }
  return { size, count, window: count, pool, contiguous: false, offset: (index) => (index % count) * STRIDE, packet: (index) => views[index % count] };
}
