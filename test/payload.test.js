import { describe, expect, it } from 'vitest';
import { createPayloads } from '../lib/payload.js';

describe('payloads', () => {
  it('are reproducible from the seed and differ between seeds', () => {
    const a = createPayloads(64, 42, 4);
    const b = createPayloads(64, 42, 4);
    const c = createPayloads(64, 43, 4);
    expect(a.packet(5).equals(b.packet(5))).toBe(true);
    expect(a.packet(5).equals(c.packet(5))).toBe(false);
  });

  it('differ from packet to packet and keep every packet in flight distinct', () => {
    const depth = 300;
    const p = createPayloads(1024 * 1024, 1, depth); // large: few distinct packets
    expect(p.count).toBeGreaterThan(depth);
    const seen = new Set();
    for (let i = 0; i <= depth; i++) seen.add(p.packet(i).subarray(0, 16).toString('hex'));
    expect(seen.size).toBe(depth + 1);
  });

  it('lay consecutive packets side by side in the pool', () => {
    const p = createPayloads(8, 7, 1);
    expect(p.packet(1).equals(p.pool.subarray(8, 16))).toBe(true);
    expect(p.packet(p.count).equals(p.packet(0))).toBe(true);
  });
});
