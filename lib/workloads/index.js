/** The workloads, by name: everything above a workload finds it here and reads its declaration (./workload.js). */
import { UsageError } from '../core/errors.js';
import { formatSize } from '../core/units.js';
import { connectWorkload } from './connect.js';
import { echo } from './echo.js';
import { httpRateWorkload, httpWorkload, proxyRateWorkload, proxyWorkload } from './http.js';
import { postgresRateWorkload, postgresWorkload } from './postgres.js';
import { rate } from './rate.js';
import { redisRateWorkload, redisWorkload } from './redis.js';
import { stream } from './stream.js';

/** @type {Record<string, import('./workload.js').Workload>} */
export const WORKLOADS = { echo, stream, connect: connectWorkload, http: httpWorkload, proxy: proxyWorkload, rate, 'http-rate': httpRateWorkload, 'proxy-rate': proxyRateWorkload,
  redis: redisWorkload, postgres: postgresWorkload, 'redis-rate': redisRateWorkload, 'postgres-rate': postgresRateWorkload };

export const WORKLOAD_NAMES = Object.keys(WORKLOADS);

/** The servers not ours, outside Node, that run and sweep start privately on the host (lib/fixture/outside.js), in words. */
const OUTSIDE_SERVERS = { redis: 'a real redis-server', postgres: 'a private PostgreSQL cluster' };
/** @typedef {keyof typeof OUTSIDE_SERVERS} OutsideHandler their Workload.fixture.server */

/**
 * A workload's server in words when it is one not ours, outside Node (redis, postgres), else undefined: run and sweep
 * start it, on the host; serve does not, --tcp/--uds measure no other, and --server-netns does not apply.
 * @param {import('./workload.js').Workload} workload
 */
export function outsideServer(workload) {
  return Object.hasOwn(OUTSIDE_SERVERS, workload.fixture.server) ? OUTSIDE_SERVERS[/** @type {OutsideHandler} */ (workload.fixture.server)] : undefined;
}

/** The workload of a spec, flag or row that names none: the 2014 echo sweep's. */
export const DEFAULT_WORKLOAD = 'echo';

/**
 * The declaration of a workload named by data (a row, a summary, meta.json); the default's when missing or unknown.
 * @param {unknown} name
 * @returns {import('./workload.js').Workload}
 */
export function workloadOf(name) {
  return typeof name === 'string' && Object.hasOwn(WORKLOADS, name) ? WORKLOADS[name] : WORKLOADS[DEFAULT_WORKLOAD];
}

/**
 * @param {unknown} name
 * @param {string} [where] the flag or key that named it
 * @returns {import('./workload.js').Workload}
 */
export function getWorkload(name, where = '--workload') {
  if (typeof name !== 'string' || !Object.hasOwn(WORKLOADS, name)) throw new UsageError(`${where} must be one of ${WORKLOAD_NAMES.join(', ')}; got ${JSON.stringify(name)}`);
  return WORKLOADS[name];
}

/**
 * A size for people in the workload's words (its size axis's `format`): `64 B` (echo), `1 lookup` (postgres). Where a
 * file or table keeps the number, it stays one.
 * @param {string | undefined} workload
 * @param {number | string} size
 */
export function sizeLabel(workload, size) {
  return (workloadOf(workload).axes.size.format ?? formatSize)(Number(size));
}

/**
 * A group's depth for people: `depth 16` (echo), `connections 10` (http).
 * @param {string | undefined} workload
 * @param {number | string} depth
 */
export function depthLabel(workload, depth) {
  return `${workloadOf(workload).axes.depth.short} ${depth}`;
}

/**
 * The most connections a trial of this workload opens at once to one listener at this depth: what the backlog must hold.
 * @param {import('./workload.js').Workload} workload
 * @param {number} depth
 * @param {{ connections?: number | null, clients?: number }} [options] the spec's (http-rate, proxy-rate, postgres-rate: --connections; redis: --clients)
 */
export function connectionsAt(workload, depth, options = {}) {
  return workload.connections?.(depth, options) ?? 1;
}
