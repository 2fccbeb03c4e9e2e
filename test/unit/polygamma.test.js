import stdlibDigamma from '@stdlib/math-base-special-digamma';
import stdlibTrigamma from '@stdlib/math-base-special-trigamma';
import { describe, expect, it } from 'vitest';
import { digamma, trigamma } from '../../lib/stats/moderation.js';

// log-spaced over the range the moderation's trigamma inversion searches, and every half integer to 2000
const GRID = [
  ...Array.from({ length: 2301 }, (_, k) => 10 ** (-8 + k / 100)),
  ...Array.from({ length: 4000 }, (_, k) => (k + 1) / 2),
  1.4616321449683622, // ψ's root: an absolute, not a relative, tolerance there
];

describe('digamma and trigamma, against @stdlib', () => {
  it('agree to 1e-12 over 1e-8 … 1e15 and at every half integer', () => {
    for (const x of GRID) {
      const psi = stdlibDigamma(x);
      expect(Math.abs(digamma(x) - psi), `digamma(${x})`).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(psi)));
      const psi1 = stdlibTrigamma(x);
      expect(Math.abs(trigamma(x) - psi1), `trigamma(${x})`).toBeLessThanOrEqual(1e-12 * psi1);
    }
  });

  it('give known values', () => {
    const eulerGamma = 0.5772156649015329;
    expect(digamma(1)).toBeCloseTo(-eulerGamma, 14);
    expect(digamma(0.5)).toBeCloseTo(-eulerGamma - 2 * Math.LN2, 14);
    expect(trigamma(1)).toBeCloseTo(Math.PI ** 2 / 6, 14);
    expect(trigamma(0.5)).toBeCloseTo(Math.PI ** 2 / 2, 14);
  });

  it('are NaN outside x > 0 and take their limits at infinity', () => {
    for (const x of [0, -1, -0.5, NaN]) expect([digamma(x), trigamma(x)]).toEqual([NaN, NaN]);
    expect([digamma(Infinity), trigamma(Infinity)]).toEqual([Infinity, 0]);
  });
});
