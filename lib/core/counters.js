/**
 * A process's mechanism counters: voluntary context switches (waits: it slept until woken) and involuntary ones, and
 * read and write system calls (/proc/PID/io's `syscr`, `syscw`: read, readv, pread, write, writev, pwrite, what libuv
 * uses on TCP and Unix sockets alike, not recv, send, recvmsg or sendmsg: docs/results.md). Per unit of work they say
 * which regime a measurement is in. Our own readings' read calls are taken back out, so the difference of two readings
 * counts only what happened between them; what cannot be read (not Linux, no task I/O accounting, gone) is null.
 */
import fs from 'node:fs';
import { readText } from './environment.js';

/**
 * @typedef {object} Counters since the process started
 * @property {number} vcsw voluntary context switches
 * @property {number} ivcsw involuntary context switches
 * @property {number | null} reads read system calls (syscr), null where unknown
 * @property {number | null} writes write system calls (syscw), null where unknown
 */

/**
 * The fields of a /proc/PID/io or /proc/PID/status text: `name: value` lines.
 * @param {string} text
 */
export function parseProcFields(text) {
  /** @type {Record<string, number>} */
  const fields = {};
  for (const line of text.split('\n')) {
    const match = /^(\w+):\s+(\d+)\s*$/.exec(line);
    if (match) fields[match[1]] = Number(match[2]);
  }
  return fields;
}

/**
 * /proc files opened once and read with one pread each; `preads` counts the readings, each a read call syscr counts.
 */
function procReader() {
  const buffer = Buffer.alloc(4096); // /proc/PID/status is ~1.5 KB; io and schedstat far less
  const reader = {
    preads: 0,
    /** @param {string} path */
    open(path) {
      try {
        return fs.openSync(path, 'r');
      } catch {
        return null;
      }
    },
    /** @param {number} fd */
    read(fd) {
      const n = fs.readSync(fd, buffer, 0, buffer.length, 0);
      reader.preads++;
      return buffer.toString('latin1', 0, n);
    },
  };
  return reader;
}

/**
 * Counters from the fields of a status file and an io file; null without the context switches.
 * @param {Record<string, number>} status
 * @param {Record<string, number>} io empty where unreadable
 * @param {number} [preads] our own read calls, taken out of syscr
 */
function toCounters(status, io, preads = 0) {
  if (!Number.isFinite(status.voluntary_ctxt_switches) || !Number.isFinite(status.nonvoluntary_ctxt_switches)) return null;
  return {
    vcsw: status.voluntary_ctxt_switches,
    ivcsw: status.nonvoluntary_ctxt_switches,
    reads: Number.isFinite(io.syscr) ? io.syscr - preads : null,
    writes: Number.isFinite(io.syscw) ? io.syscw : null,
  };
}

const own = procReader();
/** @type {number | null | undefined} /proc/self/io, opened at the first reading; null where it cannot be read */
let ownIo;

/** @returns {Counters} this process's */
export function readOwnCounters() {
  const usage = process.resourceUsage();
  if (ownIo === undefined) ownIo = own.open('/proc/self/io');
  const before = own.preads;
  /** @type {Record<string, number>} */
  let io = {};
  try {
    if (ownIo !== null) io = parseProcFields(own.read(ownIo));
  } catch {
    // unreadable: reads and writes unknown
  }
  return /** @type {Counters} */ (toCounters({ voluntary_ctxt_switches: usage.voluntaryContextSwitches, nonvoluntary_ctxt_switches: usage.involuntaryContextSwitches }, io, before));
}

/**
 * Another process's counters: its main thread's context switches (/proc/PID/status) and all its threads' read and
 * write calls (/proc/PID/io, which needs the right to trace it: our own children).
 * @param {number} pid
 * @returns {Counters | null} null when the process is gone or there is no /proc
 */
export function readProcessCounters(pid) {
  const fields = (/** @type {string} */ file) => {
    const text = readText(`/proc/${pid}/${file}`);
    return text === null ? null : parseProcFields(text);
  };
  const status = fields('status');
  return status && toCounters(status, fields('io') ?? {});
}

/**
 * @typedef {object} ThreadUsage readings of the thread that created it
 * @property {() => { user: number, system: number } | null} cpu µs since the thread started; user holds
 *   all of it where only the sum is known (schedstat), null where unknown
 * @property {() => Counters | null} counters since the thread started, null where unknown
 */

/**
 * Readings of the calling thread; call it in the thread to be measured.
 * @returns {ThreadUsage}
 */
export function createThreadUsage() {
  const proc = procReader();
  const [schedstat, status, io] = ['schedstat', 'status', 'io'].map((file) => proc.open(`/proc/thread-self/${file}`));
  // schedstat on every Node version; else process.threadCpuUsage() (Node 23.9 and later); else unknown
  const threadCpu = /** @type {{ threadCpuUsage?: () => { user: number, system: number } }} */ (/** @type {unknown} */ (process)).threadCpuUsage;
  return {
    cpu() {
      if (schedstat !== null) {
        const ns = Number(proc.read(schedstat).split(' ')[0]);
        if (Number.isFinite(ns)) return { user: ns / 1000, system: 0 };
      }
      return typeof threadCpu === 'function' ? threadCpu.call(process) : null;
    },
    counters() {
      if (status === null) return null;
      // io first: its syscr holds every pread made before this reading, and not this reading's status pread
      const before = proc.preads;
      const ioFields = io === null ? {} : parseProcFields(proc.read(io));
      return toCounters(parseProcFields(proc.read(status)), ioFields, before);
    },
  };
}

/**
 * Counters summed (the processes of nginx, a lane's blocks), null where any is unknown.
 * @param {Counters[]} list
 */
export function sumCounters(list) {
  const sum = (/** @type {'vcsw' | 'ivcsw' | 'reads' | 'writes'} */ k) => list.reduce((/** @type {number | null} */ a, c) => (a === null || c[k] === null ? null : a + /** @type {number} */ (c[k])), 0);
  return { vcsw: /** @type {number} */ (sum('vcsw')), ivcsw: /** @type {number} */ (sum('ivcsw')), reads: sum('reads'), writes: sum('writes') };
}

/**
 * @param {Counters} before
 * @param {Counters} after
 */
export function diffCounters(before, after) {
  const d = (/** @type {number | null} */ a, /** @type {number | null} */ b) => (a === null || b === null ? null : b - a);
  return { vcsw: after.vcsw - before.vcsw, ivcsw: after.ivcsw - before.ivcsw, reads: d(before.reads, after.reads), writes: d(before.writes, after.writes) };
}
