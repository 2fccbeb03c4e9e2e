/**
 * Bounds on what a trial may ask for, shared by the command line and spec
 * files. They live here, below both, so neither reaches into a workload.
 */
import { MiB } from './units.js';

/** Largest packet. */
export const MAX_SIZE = 64 * MiB;
/** Most packets in flight. */
export const MAX_DEPTH = 65536;
/** Most bytes in flight (size × depth). */
export const MAX_IN_FLIGHT = 256 * MiB;
/** Most measured packets per transport in a --packets trial (RTTs go to a fixed-size histogram; this bounds the time). */
export const MAX_PACKETS = 20_000_000;
