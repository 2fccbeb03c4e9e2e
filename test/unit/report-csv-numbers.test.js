import { describe, expect, it } from 'vitest';
import { formatNumber, toCsv } from '../../lib/results/csv.js';

describe('CSV numbers', () => {
  it('drop float noise past 9 significant digits', () => {
    expect(formatNumber(81.30335499999998)).toBe('81.303355');
    expect(formatNumber(0.1 + 0.2)).toBe('0.3');
    expect(formatNumber(1 / 3)).toBe('0.333333333');
    expect(formatNumber(-1 / 3)).toBe('-0.333333333');
    expect(formatNumber(123456789.123)).toBe('123456789');
    expect(formatNumber(99.99999999999)).toBe('100');
  });

  it('never use exponent notation', () => {
    expect(formatNumber(6.913407499950931e-7)).toBe('0.00000069134075');
    expect(formatNumber(1e-12)).toBe('0.000000000001');
    expect(formatNumber(-0.000123456789123)).toBe('-0.000123456789');
    expect(formatNumber(1.5e22)).toBe('15000000000000000000000');
    expect(formatNumber(1e21)).toBe('1000000000000000000000');
  });

  it('keep integers exact and three-decimal figures as they are', () => {
    expect(formatNumber(20000000)).toBe('20000000');
    expect(formatNumber(-5)).toBe('-5');
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(-0)).toBe('0');
    expect(formatNumber(17.375)).toBe('17.375');
  });

  it('leave non-finite numbers empty', () => {
    expect(formatNumber(NaN)).toBe('');
    expect(formatNumber(Infinity)).toBe('');
  });

  it('apply to every numeric cell of a CSV document', () => {
    expect(toCsv([{ a: 81.30335499999998, b: 6.913407499950931e-7, c: null, d: 'x' }], ['a', 'b', 'c', 'd'])).toBe('a,b,c,d\n81.303355,0.00000069134075,,x\n');
  });
});
