/**
 * CPU time and mechanism counters of one thread (a worker thread that shares
 * its process with the client): what `process.cpuUsage()` and
 * lib/core/counters.js count for the whole process, for the calling thread
 * alone.
 *
 * CPU: Linux's /proc/thread-self/schedstat (time on a CPU, in ns, on every
 * Node version), else `process.threadCpuUsage()` (Node 23.9 and later), else
 * unknown. Counters: /proc/thread-self/status (context
 * switches) and /proc/thread-self/io (read and write calls) of the calling
 * thread. Each file is opened once, by the thread it describes, and read
 * with a pread on its descriptor; the preads of earlier readings are taken
 * back out of the read calls, as lib/core/counters.js does for the process.
 */
import fs from 'node:fs';
import { parseProcFields } from './counters.js';

const BYTES = 4096; // /proc/PID/status is ~1.5 KB; io and schedstat far less

/**
 * @param {string} path
 * @returns {number | null}
 */
function open(path) {
  try {
    return fs.openSync(path, 'r');
  } catch {
    return null;
  }
}

/**
 * @typedef {object} ThreadUsage readings of the thread that created it
 * @property {() => { user: number, system: number } | null} cpu µs since the thread started; user holds
 *   all of it where only the sum is known (schedstat), null where unknown
 * @property {() => import('./counters.js').Counters | null} counters since the thread started, null where unknown
 */

/**
 * Readings of the calling thread; call it in the thread to be measured.
 * @returns {ThreadUsage}
 */
export function createThreadUsage() {
  const buffer = Buffer.alloc(BYTES);
  const schedstat = open('/proc/thread-self/schedstat');
  const status = open('/proc/thread-self/status');
  const io = open('/proc/thread-self/io');
  let preads = 0;
  /** @param {number} fd */
  const read = (fd) => {
    const n = fs.readSync(fd, buffer, 0, BYTES, 0);
    preads++;
    return buffer.toString('latin1', 0, n);
  };
  const threadCpu = /** @type {{ threadCpuUsage?: () => { user: number, system: number } }} */ (/** @type {unknown} */ (process)).threadCpuUsage;
  return {
    cpu() {
      if (schedstat !== null) {
        const ns = Number(read(schedstat).split(' ')[0]);
        if (Number.isFinite(ns)) return { user: ns / 1000, system: 0 };
      }
      return typeof threadCpu === 'function' ? threadCpu.call(process) : null;
    },
    counters() {
      if (status === null) return null;
      // io first: its syscr holds every pread made before this reading, and not this reading's status pread
      const before = preads;
      const ioFields = io === null ? {} : parseProcFields(read(io));
      const s = parseProcFields(read(status));
      if (!Number.isFinite(s.voluntary_ctxt_switches) || !Number.isFinite(s.nonvoluntary_ctxt_switches)) return null;
      return {
        vcsw: s.voluntary_ctxt_switches,
        ivcsw: s.nonvoluntary_ctxt_switches,
        reads: Number.isFinite(ioFields.syscr) ? ioFields.syscr - before : null,
        writes: Number.isFinite(ioFields.syscw) ? ioFields.syscw : null,
      };
    },
  };
}
