import { describe as group, expect, it } from 'vitest';
import { describe, quantile } from '../../lib/stats/describe.js';

group('statistics of samples (tinybench)', () => {
  it('matches worked values for 1..10', () => {
    const samples = Float64Array.from({ length: 10 }, (_, i) => i + 1);
    const s = describe(samples);
    expect(s.samplesCount).toBe(10);
    expect(s.mean).toBeCloseTo(5.5, 12);
    expect(s.sd).toBeCloseTo(3.0276503540974917, 12); // sample sd, n - 1
    expect(s.min).toBe(1);
    expect(s.max).toBe(10);
    expect(s.p50).toBeCloseTo(5.5, 12);
    expect(s.p90).toBeCloseTo(9.1, 12);
    expect(s.p99).toBeCloseTo(9.91, 12);
    // 95 % margin of error: t(0.975, 9) = 2.2621571628 × sd / √10
    expect(s.moe).toBeCloseTo(2.2621571628 * 3.0276503540974917 / Math.sqrt(10), 6);
  });

  it('sorts unsorted samples first', () => {
    expect(describe([3, 1, 2]).p50).toBe(2);
  });

  it('interpolates quantiles linearly (R-7)', () => {
    expect(quantile([10, 20], 0.25)).toBeCloseTo(12.5, 12);
    expect(quantile([5], 0.9)).toBe(5);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it('handles negative samples (log-ratios) by shifting, exactly', () => {
    const s = describe([-3, -1, 2]);
    expect(s.mean).toBeCloseTo(-2 / 3, 12);
    expect(s.p50).toBeCloseTo(-1, 12);
    expect(s.min).toBe(-3);
    expect(s.max).toBe(2);
    expect(s.sd).toBeCloseTo(Math.sqrt(((7 / 3) ** 2 + (1 / 3) ** 2 + (8 / 3) ** 2) / 2), 12);
  });

  it('refuses an empty sample', () => {
    expect(() => describe([])).toThrow(RangeError);
  });
});
