/** Bounds on what a trial may ask for, shared by the command line, spec files and results readers: below them all, so none reaches into a workload. */
import { UsageError } from './errors.js';
import { MiB, formatSize } from './units.js';

/** Largest packet. */
export const MAX_SIZE = 64 * MiB;
/** Most packets in flight. */
export const MAX_DEPTH = 65536;
/** Most bytes in flight (size × depth). */
export const MAX_IN_FLIGHT = 256 * MiB;
/** Most runs of one group, planned or added for a target precision: run numbers go from 0 to MAX_RUNS − 1. */
export const MAX_RUNS = 1000;
/** Most measured packets per transport in a --packets trial (RTTs go to a fixed-size histogram; this bounds the time). */
export const MAX_PACKETS = 20_000_000;

/**
 * Refuse more than MAX_IN_FLIGHT bytes of values in flight: redis's size × depth × clients × batch.
 * @param {number} size
 * @param {number} depth
 * @param {string} flags how to name size and depth, e.g. `--size × --depth`
 * @param {{ clients?: number, batch?: number }} [options]
 */
export function checkRedisInFlight(size, depth, flags, { clients = 1, batch = 1 } = {}) {
  const bytes = size * depth * clients * batch;
  if (bytes > MAX_IN_FLIGHT) {
    throw new UsageError(`${flags} × --clients × --batch: value size × depth × clients × batch must be at most ${formatSize(MAX_IN_FLIGHT)} in flight; got ${formatSize(size)} × ${depth} × ${clients} × ${batch} = ${formatSize(bytes)}`);
  }
}

/**
 * Refuse more than MAX_IN_FLIGHT bytes in flight.
 * @param {number} size
 * @param {number} depth
 * @param {string} flags how to name the two, e.g. `--size × --depth`
 */
export function checkInFlight(size, depth, flags) {
  if (size * depth > MAX_IN_FLIGHT) {
    throw new UsageError(`${flags}: size × depth must be at most ${formatSize(MAX_IN_FLIGHT)} in flight; got ${formatSize(size)} × ${depth} = ${formatSize(size * depth)}`);
  }
}
