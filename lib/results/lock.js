/**
 * One sweep per results directory at a time: `sweep.lock` appears whole (written under a unique name, then hard-linked
 * into place, which fails if a lock is there) and names its holder (pid, host, process start, sweep start, command).
 * A lock whose holder is gone (same host; pid not running, or reused: started at another time) is taken over, said so.
 */
import fs from 'node:fs';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { readText } from '../core/environment.js';
import { createExclusive, errorCode, readRegularFile, uniqueName, writeAll } from '../core/files.js';

export const LOCK_FILE = 'sweep.lock';
/** Largest lock file read: udsvstcp writes a few hundred bytes. */
const MAX_LOCK_BYTES = 64 * 1024;

/**
 * @typedef {object} LockHolder
 * @property {number} pid
 * @property {string} host
 * @property {string | null} process_start the kernel's start time of pid, where readable (Linux)
 * @property {string} started_at
 * @property {string[]} argv
 * @property {string} token
 */

/**
 * The start time of a process (clock ticks since boot), from /proc; null where unknown.
 * @param {number} pid
 */
export function processStart(pid) {
  const stat = readText(`/proc/${pid}/stat`);
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
}

/** @param {LockHolder} holder */
function isRunning(holder) {
  if (holder.host !== os.hostname()) return true; // cannot tell: assume it runs
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if (errorCode(error) === 'ESRCH') return false;
  }
  const start = processStart(holder.pid);
  return !(start && holder.process_start && start !== holder.process_start);
}

/**
 * @param {string} path
 * @returns {LockHolder | null} null: the lock vanished meanwhile
 */
function readHolder(path) {
  let text;
  try {
    text = readRegularFile(path, { maxBytes: MAX_LOCK_BYTES, what: 'a lock file' }).toString('utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
  try {
    const holder = JSON.parse(text);
    if (Number.isInteger(holder.pid) && typeof holder.host === 'string' && typeof holder.token === 'string') return holder;
  } catch {
    // fall through
  }
  throw new UsageError(`${path} is not a lock udsvstcp wrote; if no sweep is running in that directory, delete it and try again`, 'ERR_LOCKED');
}

/** @param {LockHolder} holder */
function describeHolder(holder) {
  const where = holder.host === os.hostname() ? '' : ` on host ${holder.host}`;
  return `udsvstcp pid ${holder.pid}${where} (since ${holder.started_at}: ${['udsvstcp', ...holder.argv].join(' ')})`;
}

/**
 * Take the lock of `dir` or throw a UsageError naming its holder.
 * @param {string} dir
 * @param {{ flag: string }} options the flag that named the directory, for messages
 * @returns {{ tookOver: LockHolder | null, release: () => void }}
 */
export function acquireLock(dir, { flag }) {
  const path = join(dir, LOCK_FILE);
  /** @type {LockHolder} */
  const holder = { pid: process.pid, host: os.hostname(), process_start: processStart(process.pid), started_at: new Date().toISOString(), argv: process.argv.slice(2), token: randomBytes(8).toString('hex') };
  /** @type {LockHolder | null} */
  let tookOver = null;
  const release = () => {
    try {
      if (readHolder(path)?.token === holder.token) fs.unlinkSync(path); // only if it is still ours
    } catch {
      // not ours, or unreadable: leave it
    }
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    const temporary = uniqueName(path);
    let fd;
    try {
      fd = createExclusive(temporary);
    } catch (error) {
      throw new UsageError(`${flag} ${dir}: cannot create ${LOCK_FILE} there: ${/** @type {Error} */ (error).message}`, 'ERR_LOCK');
    }
    try {
      writeAll(fd, `${JSON.stringify(holder)}\n`, temporary);
    } catch (error) {
      fs.rmSync(temporary, { force: true }); // ours: a full disk leaves no half-written file behind
      throw error;
    } finally {
      fs.closeSync(fd);
    }
    try {
      fs.linkSync(temporary, path);
      return { tookOver, release };
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw new UsageError(`${flag} ${dir}: cannot create ${LOCK_FILE}: ${/** @type {Error} */ (error).message}`);
    } finally {
      fs.rmSync(temporary, { force: true });
    }
    const current = readHolder(path);
    if (current === null) continue;
    if (isRunning(current)) {
      const hint = current.host === os.hostname() ? 'wait for it to finish or stop it' : `if it no longer runs, delete ${path}`;
      throw new UsageError(`${flag} ${dir} is in use by ${describeHolder(current)}; ${hint} (two sweeps in one directory would measure trials twice)`, 'ERR_LOCKED');
    }
    // stale: move it aside (atomic), and make sure what we moved is the lock we judged
    const aside = uniqueName(`${path}.stale`);
    try {
      fs.renameSync(path, aside);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') continue;
      throw error;
    }
    const moved = readHolder(aside);
    if (moved?.token === current.token) {
      fs.rmSync(aside, { force: true });
      tookOver = current;
      continue;
    }
    // a live lock appeared between our read and our move: put it back (never over another)
    try {
      if (moved) fs.linkSync(aside, path);
    } finally {
      fs.rmSync(aside, { force: true });
    }
    throw new UsageError(`${flag} ${dir} is in use by ${moved ? describeHolder(moved) : 'another sweep'}; wait for it to finish or stop it`, 'ERR_LOCKED');
  }
  throw new UsageError(`${flag} ${dir}: could not take ${LOCK_FILE}; other sweeps keep starting there`, 'ERR_LOCKED');
}
