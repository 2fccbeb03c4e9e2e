import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPayloads } from '../../lib/client/payload.js';

/**
 * A packet's value as a Map key: its bytes when small, their SHA-1 when large
 * (two packets of one key differ only if SHA-1 collides, which would count
 * them as duplicates: it can fail this file, never pass it falsely).
 * @param {Buffer} packet
 */
const valueOf = (packet) => (packet.length <= 64 ? packet.toString('latin1') : createHash('sha1').update(packet).digest('base64'));

/**
 * The largest number of pairwise-equal packets found in any `window`
 * consecutive packets, walking twice round the pool (cyclic windows).
 * @param {import('../../lib/client/payload.js').Payloads} p
 * @param {number} window
 */
function duplicatesInWindows(p, window) {
  let worst = 0;
  let repeats = 0; // packets in the window beyond the first of their value
  /** @type {Map<string, number>} */
  const counts = new Map();
  /** @type {string[]} the values in the window, each read once */
  const ring = new Array(window);
  for (let i = 0; i < p.count + window; i++) {
    if (i >= window) {
      const leaving = ring[i % window];
      const m = /** @type {number} */ (counts.get(leaving));
      counts.set(leaving, m - 1);
      if (m > 1) repeats--;
    }
    const value = valueOf(p.packet(i));
    ring[i % window] = value;
    const n = (counts.get(value) ?? 0) + 1;
    counts.set(value, n);
    if (n > 1) repeats++;
    if (i >= window - 1) worst = Math.max(worst, repeats);
  }
  return worst;
}

describe('payloads', () => {
  it('are reproducible from the seed and differ between seeds', () => {
    const a = createPayloads(64, 42, 4);
    const b = createPayloads(64, 42, 4);
    const c = createPayloads(64, 43, 4);
    expect(a.packet(5).equals(b.packet(5))).toBe(true);
    expect(a.packet(5).equals(c.packet(5))).toBe(false);
  });

  it('at 1 B: any 16 consecutive packets are distinct (a random pool would repeat in 38 % of windows)', () => {
    const p = createPayloads(1, 3, 16);
    expect(p.window).toBe(16);
    expect(duplicatesInWindows(p, 16)).toBe(0);
    expect(duplicatesInWindows(p, 256)).toBe(0); // every value once: any 256 in a row
  });

  it('at 1 B the guarantee stops at 256 packets in flight, and says so', () => {
    const p = createPayloads(1, 3, 1000);
    expect(p.window).toBe(256);
    expect(p.count).toBe(256);
  });

  it('at 2 B every value appears once, so any 4096 in a row are distinct', () => {
    const p = createPayloads(2, 9, 4096);
    expect(p.count).toBe(65536);
    expect(p.window).toBe(4096);
    expect(new Set(Array.from({ length: p.count }, (_, i) => p.packet(i).readUInt16BE(0))).size).toBe(65536);
  });

  it('at 3 B, where random draws collide, windows of the depth hold no duplicate', () => {
    const depth = 2048; // ~12 % of such windows of raw random 3-byte packets would hold a duplicate
    const p = createPayloads(3, 5, depth);
    expect(p.window).toBe(depth);
    expect(duplicatesInWindows(p, depth)).toBe(0);
  });

  it('hold at least as many packets as can be in flight, even for large packets', () => {
    const depth = 300;
    const p = createPayloads(64 * 1024, 1, depth);
    expect(p.count).toBe(depth);
    expect(duplicatesInWindows(p, depth)).toBe(0);
  });

  it('overlap large packets 4 KiB apart, so 16 MiB × 4 in flight needs a 16 MiB pool, not 64 MiB', () => {
    const p = createPayloads(16 * 1024 * 1024, 2, 4);
    expect(p.contiguous).toBe(false);
    expect(p.count).toBe(4);
    expect(p.pool.length).toBe(16 * 1024 * 1024 + 3 * 4096);
    expect(p.packet(1).equals(p.pool.subarray(4096, 4096 + 16 * 1024 * 1024))).toBe(true);
    expect(p.offset(5)).toBe(4096);
    expect(duplicatesInWindows(p, 4)).toBe(0);
  });

  it('lay consecutive packets side by side in the pool', () => {
    const p = createPayloads(8, 7, 1);
    expect(p.packet(1).equals(p.pool.subarray(8, 16))).toBe(true);
    expect(p.packet(p.count).equals(p.packet(0))).toBe(true);
  });
});
