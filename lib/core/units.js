/**
 * Sizes, counts and durations as people type them, and validators turning a bad value into a one-line UsageError
 * naming the flag. Sizes use binary multiples: 1k = 1KiB = 1024 bytes.
 */
import { UsageError } from './errors.js';

/** @type {Record<string, number>} */
const SIZE_UNITS = {
  '': 1, b: 1,
  k: 1024, kb: 1024, kib: 1024,
  m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2,
  g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3,
};

/** @type {Record<string, number>} */
const TIME_UNITS = { us: 0.001, 'µs': 0.001, ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 };

export const KiB = 1024;
export const MiB = 1024 * 1024;

/**
 * Parse a byte size such as `64`, `1k`, `64KiB`, `1MiB`.
 * @param {string | number} text
 * @returns {number} bytes, or NaN when the text is not a size
 */
export function parseSize(text) {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(String(text));
  if (!match) return NaN;
  const unit = SIZE_UNITS[match[2].toLowerCase()];
  if (unit === undefined) return NaN;
  return Number(match[1]) * unit;
}

/**
 * Parse a duration such as `2s`, `500ms`, `1m` or `1min`, `1h`; a bare number is seconds.
 * @param {string | number} text
 * @returns {number} milliseconds, or NaN when the text is not a duration
 */
export function parseDuration(text) {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(us|µs|ms|min|s|m|h)?\s*$/i.exec(String(text));
  if (!match) return NaN;
  return Number(match[1]) * TIME_UNITS[(match[2] ?? 's').toLowerCase()];
}

/**
 * A human form of a byte count: 1 B, 64 B, 1 KiB, 64 MiB.
 * @param {number} bytes
 */
export function formatSize(bytes) {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= KiB && bytes % KiB === 0) return `${bytes / KiB} KiB`;
  return `${bytes} B`;
}

/**
 * A human form of a duration, in the largest unit that holds it whole: 50 µs, 10 ms, 2 s, 10 min, 1 h. The one way
 * a range of times is written, in the help, the docs and the errors.
 * @param {number} ms
 */
export function formatDuration(ms) {
  if (ms < 1) return `${+(ms * 1000).toFixed(3)} µs`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

/**
 * A percentage with one decimal, or as many more (up to four) as it takes not to print a value over `limit` as the
 * limit itself: ±5.04 % against a ±5 % target reads "5.04", not "5.0".
 * @param {number} pct e.g. 5.04
 * @param {number} [limit] e.g. 5
 */
export function formatPercent(pct, limit = NaN) {
  for (let digits = 1; digits < 4; digits++) {
    const text = pct.toFixed(digits);
    if (!(pct > limit && Number(text) <= limit)) return text;
  }
  return pct.toFixed(4);
}

/** @param {number} n */
export function isPowerOfTwo(n) {
  return Number.isInteger(n) && n > 0 && Number.isInteger(Math.log2(n));
}

/**
 * A packet size: a power of two within [min, max] bytes.
 * @param {string | number} text
 * @param {string} flag the flag or key to name in the error
 * @param {{ min?: number, max?: number }} [range]
 */
export function toPacketSize(text, flag, { min = 1, max = 64 * MiB } = {}) {
  const bytes = parseSize(text);
  if (!isPowerOfTwo(bytes) || bytes < min || bytes > max) {
    const examples = ['64', '1k', '64KiB', '1MiB'].filter((e) => parseSize(e) >= min && parseSize(e) <= max); // in the range only
    throw new UsageError(`${flag} must be a power of two from ${formatSize(min)} to ${formatSize(max)}${examples.length ? ` (e.g. ${examples.join(', ')})` : ''}; got ${JSON.stringify(text)}`);
  }
  return bytes;
}

/**
 * A whole number within [min, max].
 * @param {string | number} text
 * @param {string} flag
 * @param {{ min?: number, max?: number }} [range]
 */
export function toInteger(text, flag, { min = 1, max = Number.MAX_SAFE_INTEGER } = {}) {
  const value = /^\s*-?\d+\s*$/.test(String(text)) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}; got ${JSON.stringify(text)}`);
  }
  return value;
}

/**
 * A duration within [min, max] milliseconds.
 * @param {string | number} text
 * @param {string} flag
 * @param {{ min?: number, max?: number }} [range]
 */
export function toDuration(text, flag, { min = 1, max = 3_600_000 } = {}) {
  const ms = parseDuration(text);
  if (!Number.isFinite(ms) || ms < min || ms > max) {
    const examples = ['50us', '500ms', '2s', '1min', '1h'].filter((e) => parseDuration(e) >= min && parseDuration(e) <= max);
    throw new UsageError(`${flag} must be a duration from ${formatDuration(min)} to ${formatDuration(max)} (${examples.length ? `e.g. ${examples.join(', ')}; ` : ''}a bare number is seconds); got ${JSON.stringify(text)}`);
  }
  return ms;
}

/** The longest warmup by time. */
export const MAX_WARMUP_MS = 600_000;

/**
 * A warmup: a bare whole number is a packet count, a number with a time unit is a duration.
 * @param {string | number} text
 * @param {string} flag
 * @returns {{ packets: number } | { ms: number }}
 */
export function toWarmup(text, flag) {
  const s = String(text).trim();
  const packets = /^\d+$/.test(s) ? Number(s) : NaN;
  if (Number.isSafeInteger(packets) && packets <= 10_000_000) return { packets };
  const ms = /^\d+(?:\.\d+)?\s*(ms|min|s|m|h)$/i.test(s) ? parseDuration(s) : NaN;
  if (ms <= MAX_WARMUP_MS) return { ms };
  throw new UsageError(`${flag} must be a packet count from 0 to 10000000 (a bare number: 1000) or a time up to ${formatDuration(MAX_WARMUP_MS)} (with a unit: 250ms, 1s, 10min); got ${JSON.stringify(typeof text === 'number' ? text : s)}`);
}
