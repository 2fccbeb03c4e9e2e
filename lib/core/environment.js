/** The confounders recorded beside every set of numbers. */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { getDefaultHighWaterMark } from 'node:stream';

/** udsvstcp's package.json. */
export const packageJson = () => JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

/** @returns {string} udsvstcp's version */
export const version = () => packageJson().version;

/**
 * A /proc or /sys file's text, trimmed; null where it is unreadable or empty.
 * @param {string} path
 */
export function readText(path) {
  try {
    return readFileSync(path, 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/**
 * A /proc or /sys file that holds a whole number, as a number; null where it is unreadable or holds anything else.
 * @param {string} path
 */
export function readWholeNumber(path) {
  const text = readText(path);
  return text !== null && /^\d+$/.test(text) ? Number(text) : null;
}

/**
 * The kernel settings that bound how fast loopback TCP connections can be opened and closed (Linux; null elsewhere):
 * numbers, but the port range (`32768-60999`).
 */
export function readNetLimits() {
  return {
    ip_local_port_range: readText('/proc/sys/net/ipv4/ip_local_port_range')?.replace(/\s+/g, '-') ?? null,
    tcp_tw_reuse: readWholeNumber('/proc/sys/net/ipv4/tcp_tw_reuse'),
    somaxconn: readWholeNumber('/proc/sys/net/core/somaxconn'),
  };
}

export function collectEnvironment() {
  const cpus = os.cpus();
  return {
    udsvstcp: version(),
    node: process.versions.node,
    v8: process.versions.v8,
    libuv: process.versions.uv,
    platform: process.platform,
    arch: process.arch,
    os_release: os.release(),
    cpu_model: cpus[0]?.model ?? null,
    cpu_count: os.availableParallelism(),
    cpu_governor: readText('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor'),
    total_memory_bytes: os.totalmem(),
    loadavg: os.loadavg(),
    stream_high_water_mark_bytes: getDefaultHighWaterMark(false),
    net: readNetLimits(),
  };
}

/**
 * One line for people.
 * @param {ReturnType<typeof collectEnvironment>} env
 */
export function describeEnvironment(env) {
  return `udsvstcp ${env.udsvstcp} · node ${env.node} (libuv ${env.libuv}) · ${env.platform} ${env.os_release} ${env.arch} · ${env.cpu_count}× ${env.cpu_model ?? 'cpu'}${env.cpu_governor ? ` (${env.cpu_governor})` : ''} · load ${env.loadavg.map((l) => l.toFixed(2)).join(' ')}`;
}
