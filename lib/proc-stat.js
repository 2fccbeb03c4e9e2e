/**
 * CPU time of a process that is not Node (nginx's master and workers), from
 * Linux's /proc/PID/stat. Elsewhere these return null or [].
 *
 * Times in /proc are in clock ticks of USER_HZ, which the kernel fixes at 100
 * for userspace on every architecture Node runs on (`getconf CLK_TCK`), so
 * the resolution is 10 ms: read CPU over spans of many ticks, not per request.
 */
import fs from 'node:fs';

export const CLOCK_TICKS_PER_SECOND = 100;

/**
 * @typedef {object} ProcStat
 * @property {number} pid
 * @property {number} ppid
 * @property {number} pgrp
 * @property {string} state one letter: R, S, Z …
 * @property {number} utime ticks in user mode
 * @property {number} stime ticks in kernel mode
 * @property {number} cutime ticks in user mode of its children that exited and were waited for
 * @property {number} cstime ticks in kernel mode of those children
 */

/**
 * Parse the text of /proc/PID/stat. The command name (field 2) may hold
 * spaces and parentheses, so the fields are counted from its last ')'.
 * @param {string} text
 * @returns {ProcStat | null}
 */
export function parseProcStat(text) {
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const pid = Number.parseInt(text, 10);
  // fields from 3 on: state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime …
  const f = text.slice(close + 2).split(' ');
  if (f.length < 15) return null;
  const n = (/** @type {number} */ i) => Number(f[i]);
  const stat = { pid, ppid: n(1), pgrp: n(2), state: f[0], utime: n(11), stime: n(12), cutime: n(13), cstime: n(14) };
  return Object.values(stat).every((v) => typeof v === 'string' || Number.isFinite(v)) ? stat : null;
}

/**
 * @param {number} pid
 * @returns {ProcStat | null} null when the process is gone (or there is no /proc)
 */
export function readProcStat(pid) {
  try {
    return parseProcStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The live child processes of `pid`: from /proc/PID/task/PID/children where
 * the kernel has it (CONFIG_PROC_CHILDREN), else by scanning every
 * /proc/N/stat for ppid == pid. Zombies are left out.
 * @param {number} pid
 * @returns {number[]}
 */
export function childPids(pid) {
  /** @type {number[]} */
  let candidates;
  try {
    candidates = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    try {
      candidates = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
    } catch {
      return [];
    }
  }
  /** @type {number[]} */
  const children = [];
  for (const candidate of candidates) {
    const stat = readProcStat(candidate);
    if (stat && stat.ppid === pid && stat.state !== 'Z') children.push(candidate);
  }
  return children.sort((a, b) => a - b);
}
