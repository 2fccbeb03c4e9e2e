import { describe, expect, it } from 'vitest';
import { UsageError } from '../../lib/core/errors.js';
import { formatDuration, formatPercent, formatSize, parseDuration, parseSize, toInteger, toPacketSize, toWarmup } from '../../lib/core/units.js';

describe('sizes, counts and durations as typed', () => {
  it('parses binary sizes', () => {
    expect(parseSize('64')).toBe(64);
    expect(parseSize('1k')).toBe(1024);
    expect(parseSize('64KiB')).toBe(65536);
    expect(parseSize('1MiB')).toBe(1048576);
    expect(parseSize('2 mb')).toBe(2097152);
    expect(parseSize('abc')).toBeNaN();
    expect(parseSize('1.5x')).toBeNaN();
  });

  it('parses durations; a bare number is seconds', () => {
    expect(parseDuration('2s')).toBe(2000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('1m')).toBe(60000);
    expect(parseDuration('3')).toBe(3000);
    expect(parseDuration('50us')).toBeCloseTo(0.05, 12); // microseconds, for --server-work
    expect(parseDuration('200µs')).toBeCloseTo(0.2, 12);
    expect(parseDuration('soon')).toBeNaN();
    // hours and minutes as the help writes its ranges ("10 ms to 1 h", "up to 10 min"): `1h` gave NaN
    expect(parseDuration('1h')).toBe(3_600_000);
    expect(parseDuration('2H')).toBe(7_200_000);
    expect(parseDuration('10min')).toBe(600_000);
    expect(parseDuration('1 min')).toBe(60_000);
    expect(parseDuration('1hr')).toBeNaN();
  });

  it('formats sizes for people', () => {
    expect(formatSize(1)).toBe('1 B');
    expect(formatSize(1024)).toBe('1 KiB');
    expect(formatSize(64 * 1024 * 1024)).toBe('64 MiB');
  });

  it.each(['0', '3', '-1', '1.5', 'abc', '128MiB'])('refuses packet size %s naming the flag and range', (text) => {
    expect(() => toPacketSize(text, '--size')).toThrow(UsageError);
    expect(() => toPacketSize(text, '--size')).toThrow(/^--size must be a power of two from 1 B to 64 MiB/);
  });

  it("gives examples within the axis's range only", () => {
    expect(() => toPacketSize('1MiB', '--size', { min: 16, max: 64 * 1024 })).toThrow('--size must be a power of two from 16 B to 64 KiB (e.g. 64, 1k, 64KiB); got "1MiB"');
    expect(() => toPacketSize('8', '--size', { min: 1024 * 1024, max: 4 * 1024 * 1024 })).toThrow('--size must be a power of two from 1 MiB to 4 MiB (e.g. 1MiB); got "8"');
  });

  it('accepts the largest packet size', () => {
    expect(toPacketSize('64MiB', '--size')).toBe(64 * 1024 * 1024);
  });

  it('refuses counts outside their range', () => {
    expect(() => toInteger('0', '--packets', { min: 1, max: 10 })).toThrow(/--packets must be a whole number from 1 to 10; got "0"/);
    expect(() => toInteger('2.5', '--depth')).toThrow(/--depth/);
    expect(toInteger('7', '--depth')).toBe(7);
  });

  it('reads a warmup as packets or time', () => {
    expect(toWarmup('1000', '--warmup')).toEqual({ packets: 1000 });
    expect(toWarmup('250ms', '--warmup')).toEqual({ ms: 250 });
    expect(() => toWarmup('lots', '--warmup')).toThrow(/--warmup must be a packet count/);
    expect(toWarmup('10min', '--warmup')).toEqual({ ms: 600_000 });
    expect(() => toWarmup('1h', '--warmup')).toThrow(/^--warmup must be a packet count from 0 to 10000000 \(a bare number: 1000\) or a time up to 10 min \(/);
  });

  it('writes a duration in the largest unit that holds it whole', () => {
    expect([0.05, 10, 1500, 2000, 600_000, 3_600_000, 86_400_000, 5_400_000].map(formatDuration)).toEqual(['50 µs', '10 ms', '1500 ms', '2 s', '10 min', '1 h', '24 h', '90 min']);
  });
});

describe('formatPercent', () => {
  it('prints one decimal, more only where one would show a value over the limit as the limit', () => {
    expect(formatPercent(4.96, 5)).toBe('5.0'); // within: 5.0 is fine
    expect(formatPercent(5.04, 5)).toBe('5.04');
    expect(formatPercent(5.0004, 5)).toBe('5.0004');
    expect(formatPercent(5.3, 5)).toBe('5.3');
    expect(formatPercent(12.345)).toBe('12.3');
  });
});
