/** Seeded randomness from Node's AES-CTR keystream: the same bytes for a seed on every platform, at native speed, no hand-rolled generator. */
import { createCipheriv, createHash, randomInt } from 'node:crypto';

/**
 * A keystream cipher for (seed, stream): different streams of one seed are independent.
 * @param {number | string} seed
 * @param {string} stream
 */
function keystream(seed, stream) {
  const key = createHash('sha256').update(`udsvstcp/${stream}/${seed}`).digest();
  return createCipheriv('aes-128-ctr', key.subarray(0, 16), key.subarray(16, 32));
}

/**
 * A seeded stream of random bytes: each call returns the next `length` bytes.
 * @param {number | string} seed
 * @returns {(length: number) => Buffer}
 */
export function createByteStream(seed, stream = 'bytes') {
  const cipher = keystream(seed, stream);
  return (length) => cipher.update(Buffer.alloc(length));
}

/**
 * A seeded generator of floats in [0, 1).
 * @param {number | string} seed
 */
export function createRandom(seed, stream = 'random') {
  const next = createByteStream(seed, stream);
  let block = next(4096);
  let offset = 0;
  return () => {
    if (offset + 4 > block.length) {
      block = next(4096);
      offset = 0;
    }
    const value = block.readUInt32LE(offset) / 2 ** 32;
    offset += 4;
    return value;
  };
}

/**
 * Shuffle a copy of `items` (Fisher–Yates) with a seeded generator.
 * @template T
 * @param {readonly T[]} items
 * @param {() => number} random
 */
export function shuffle(items, random) {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** A fresh seed for runs that were not given one; it is always recorded. */
export function newSeed() {
  return randomInt(1, 2 ** 31 - 1);
}
