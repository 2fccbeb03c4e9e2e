/**
 * Where the machine's CPU time went while a session ran, from /proc/stat's first line (Linux): busy, idle, iowait and
 * steal (a guest's vCPU ready to run while the host ran something else). Steal is the one share a guest cannot see in
 * its own processes: on a busy host a sweep's figures are lower and its runs spread more, whatever udsvstcp does.
 * meta.json records the counters at each session's start and end, and the shares between them; elsewhere null.
 */
import { readText } from './environment.js';

/** /proc/stat's columns on the `cpu` line, in order (clock ticks since boot, all CPUs). */
const COLUMNS = /** @type {const} */ (['user', 'nice', 'system', 'idle', 'iowait', 'irq', 'softirq', 'steal']);

/** @typedef {Record<(typeof COLUMNS)[number], number>} CpuTimes */

/**
 * Parse /proc/stat's aggregate `cpu` line; null when it is missing or malformed.
 * @param {string} text the whole of /proc/stat
 */
export function parseCpuTimes(text) {
  const line = text.split('\n').find((l) => /^cpu\s/.test(l));
  if (!line) return null;
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  if (fields.length < COLUMNS.length || !fields.slice(0, COLUMNS.length).every((n) => Number.isSafeInteger(n) && n >= 0)) return null;
  return /** @type {CpuTimes} */ (Object.fromEntries(COLUMNS.map((name, i) => [name, fields[i]])));
}

/**
 * The counters now; null off Linux or when /proc/stat cannot be read.
 */
export function readCpuTimes() {
  const text = readText('/proc/stat');
  return text === null ? null : parseCpuTimes(text);
}

/**
 * Shares of the CPU time between two readings (fractions of all CPUs' time, unrounded): busy (user, nice, system, irq,
 * softirq), idle, iowait, steal. Null when a reading is missing, a counter went backwards, or no tick passed.
 * @param {CpuTimes | null | undefined} start
 * @param {CpuTimes | null | undefined} end
 */
export function cpuShares(start, end) {
  if (!start || !end) return null;
  const delta = /** @type {CpuTimes} */ (Object.fromEntries(COLUMNS.map((name) => [name, end[name] - start[name]])));
  if (Object.values(delta).some((d) => !Number.isFinite(d) || d < 0)) return null;
  const ticks = COLUMNS.reduce((sum, name) => sum + delta[name], 0);
  if (ticks === 0) return null;
  const share = (/** @type {number} */ n) => n / ticks;
  return {
    ticks,
    busy: share(delta.user + delta.nice + delta.system + delta.irq + delta.softirq),
    idle: share(delta.idle),
    iowait: share(delta.iowait),
    steal: share(delta.steal),
  };
}
