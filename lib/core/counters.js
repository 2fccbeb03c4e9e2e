/**
 * The mechanism counters of a process: voluntary and involuntary context
 * switches (a voluntary one is a wait: the process slept until something woke
 * it), and read and write system calls (`syscr`, `syscw` of Linux's
 * /proc/PID/io). Per unit of work they say which regime a measurement is in:
 * a wake-up per message, several writes per chunk.
 *
 * Our own process: `process.resourceUsage()` (every platform; all threads)
 * and /proc/self/io read with one pread on a file descriptor kept open; the
 * read calls of these readings are taken back out, so the difference of two
 * readings counts only what happened between them. Where /proc/self/io
 * cannot be read (not Linux, no task I/O accounting), reads and writes are
 * null. Another process (nginx): /proc/PID/status and /proc/PID/io, null
 * where unreadable.
 *
 * What syscr and syscw count: read, readv, pread and write, writev, pwrite,
 * which is what libuv uses on TCP and Unix sockets alike; not recv, send,
 * recvmsg or sendmsg (socket calls that bypass the VFS): Node's IPC channel
 * reads with recvmsg, and nginx reads its connections with recv.
 */
import fs from 'node:fs';

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
 * @returns {Record<string, number>}
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

const IO_BYTES = 512; // /proc/PID/io is 7 lines of at most ~40 bytes
/** @type {{ fd: number | null, buffer: Buffer, preads: number } | undefined} */
let own;

/**
 * syscr and syscw of this process, from one pread of /proc/self/io, less
 * the preads of earlier readings (each counted in syscr once it returned).
 * @returns {{ reads: number, writes: number } | null}
 */
function readOwnIo() {
  if (!own) {
    let fd = null;
    try {
      fd = fs.openSync('/proc/self/io', 'r');
    } catch {
      fd = null;
    }
    own = { fd, buffer: Buffer.alloc(IO_BYTES), preads: 0 };
  }
  if (own.fd === null) return null;
  try {
    const n = fs.readSync(own.fd, own.buffer, 0, IO_BYTES, 0);
    const f = parseProcFields(own.buffer.toString('latin1', 0, n));
    const io = Number.isFinite(f.syscr) && Number.isFinite(f.syscw) ? { reads: f.syscr - own.preads, writes: f.syscw } : null;
    own.preads++;
    return io;
  } catch {
    return null;
  }
}

/** @returns {Counters} this process's */
export function readOwnCounters() {
  const usage = process.resourceUsage();
  const io = readOwnIo();
  return {
    vcsw: usage.voluntaryContextSwitches,
    ivcsw: usage.involuntaryContextSwitches,
    reads: io ? io.reads : null,
    writes: io ? io.writes : null,
  };
}

/**
 * Another process's counters: context switches of its main thread
 * (/proc/PID/status) and the read and write calls of all its threads
 * (/proc/PID/io, which needs the right to trace it: our own children).
 * @param {number} pid
 * @returns {Counters | null} null when the process is gone or there is no /proc
 */
export function readProcessCounters(pid) {
  let status;
  try {
    status = parseProcFields(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return null;
  }
  if (!Number.isFinite(status.voluntary_ctxt_switches) || !Number.isFinite(status.nonvoluntary_ctxt_switches)) return null;
  /** @type {Record<string, number>} */
  let io = {};
  try {
    io = parseProcFields(fs.readFileSync(`/proc/${pid}/io`, 'utf8'));
  } catch {
    io = {};
  }
  return {
    vcsw: status.voluntary_ctxt_switches,
    ivcsw: status.nonvoluntary_ctxt_switches,
    reads: Number.isFinite(io.syscr) ? io.syscr : null,
    writes: Number.isFinite(io.syscw) ? io.syscw : null,
  };
}

/**
 * Counters summed (the processes of nginx, a lane's blocks), null where any is unknown.
 * @param {Counters[]} list
 * @returns {Counters}
 */
export function sumCounters(list) {
  const sum = (/** @type {'vcsw' | 'ivcsw' | 'reads' | 'writes'} */ k) => list.reduce((/** @type {number | null} */ a, c) => (a === null || c[k] === null ? null : a + /** @type {number} */ (c[k])), 0);
  return { vcsw: /** @type {number} */ (sum('vcsw')), ivcsw: /** @type {number} */ (sum('ivcsw')), reads: sum('reads'), writes: sum('writes') };
}

/**
 * What happened between two readings.
 * @param {Counters} before
 * @param {Counters} after
 * @returns {Counters}
 */
export function diffCounters(before, after) {
  const d = (/** @type {number | null} */ a, /** @type {number | null} */ b) => (a === null || b === null ? null : b - a);
  return { vcsw: after.vcsw - before.vcsw, ivcsw: after.ivcsw - before.ivcsw, reads: d(before.reads, after.reads), writes: d(before.writes, after.writes) };
}
