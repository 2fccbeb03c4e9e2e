/**
 * What is running: processes found through /proc (Linux).
 */
import fs from 'node:fs';
import { afterEach, beforeEach } from 'vitest';
import { makeTempDir } from './temp.js';

/**
 * The processes whose command line mentions `text`.
 * @param {string} text
 */
export function processesMentioning(text) {
  return fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
    } catch {
      return false;
    }
  });
}

/**
 * @typedef {{ pid: number, start: number, cmdline: string }} ProcessSeen a process, named by pid and start time (pids are reused)
 */

/**
 * @param {number} pid
 * @returns {{ ppid: number, start: number, state: string } | null}
 */
function stat(pid) {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: f[0], ppid: Number(f[1]), start: Number(f[19]) };
  } catch {
    return null;
  }
}

/**
 * Every live process below `pid` (children, grandchildren …), from /proc.
 * @param {number} pid
 * @returns {ProcessSeen[]}
 */
export function descendants(pid) {
  const all = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number)
    .map((p) => ({ pid: p, stat: stat(p) })).filter((p) => p.stat && p.stat.state !== 'Z');
  /** @type {ProcessSeen[]} */
  const found = [];
  let parents = new Set([pid]);
  for (let depth = 0; depth < 10 && parents.size > 0; depth++) {
    const children = all.filter((p) => parents.has(/** @type {{ ppid: number }} */ (p.stat).ppid));
    for (const child of children) {
      let cmdline = '';
      try {
        cmdline = fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      } catch {
        continue;
      }
      found.push({ pid: child.pid, start: /** @type {{ start: number }} */ (child.stat).start, cmdline });
    }
    parents = new Set(children.map((p) => p.pid));
  }
  return found;
}

/**
 * Is it still running: the same pid and start time, and not a zombie?
 * @param {{ pid: number, start: number }} seen
 */
export function isRunning(seen) {
  const now = stat(seen.pid);
  return now !== null && now.start === seen.start && now.state !== 'Z';
}

/**
 * Has the process stopped (SIGSTOP takes effect when it is next scheduled, not at once)?
 * @param {number} pid
 */
export function isStopped(pid) {
  return stat(pid)?.state === 'T';
}

/**
 * For tests that start processes which must not outlive them: before each
 * test a fresh temporary directory (`ctx.tmp`) and an empty `ctx.seen`; after
 * each, every process in `ctx.seen` still running is SIGKILLed (a failed
 * test leaves nothing either) and the directory removed. Call at the top of
 * a test file.
 */
export function trackProcesses() {
  const ctx = {
    /** @type {{ dir: string, remove: () => Promise<void> }} */
    tmp: /** @type {any} */ (null),
    /** @type {ProcessSeen[]} */
    seen: [],
  };
  beforeEach(async () => {
    ctx.tmp = await makeTempDir();
    ctx.seen = [];
  });
  afterEach(async () => {
    for (const p of ctx.seen.filter(isRunning)) process.kill(p.pid, 'SIGKILL');
    await ctx.tmp.remove();
  });
  return ctx;
}

/**
 * The live processes whose environment holds `entry` (NAME=value): the
 * descendants of a command started with it, wherever they were reparented.
 * @param {string} entry
 */
export function processesWithEnvironment(entry) {
  return fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).filter((pid) => {
    try {
      return stat(Number(pid))?.state !== 'Z' && fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(entry);
    } catch {
      return false;
    }
  });
}
