/**
 * Change a sysctl for the length of one function and put the old value back
 * on every way out a process has: the function returns or throws, SIGINT,
 * SIGTERM or SIGHUP arrives (the old value is written back at once, the
 * function is told through its AbortSignal, and the process then exits
 * 128 + the signal's number), or anything calls process.exit() (the 'exit'
 * event writes it back synchronously). Only SIGKILL and a power cut escape;
 * then the line printed before the change says how to restore it by hand.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

/** The signals that restore the value and end the process. */
export const RESTORING_SIGNALS = /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP']);

/**
 * /proc/sys/net/core/wmem_default for net.core.wmem_default.
 * @param {string} name
 */
export function sysctlPath(name) {
  return `/proc/sys/${name.split('.').join('/')}`;
}

/** @param {string} path */
export function readSysctl(path) {
  return readFileSync(path, 'utf8').trim();
}

/**
 * @template T
 * @param {string} path the /proc/sys file (a temporary file in tests)
 * @param {string | number} value
 * @param {(signal: AbortSignal) => Promise<T>} fn runs while the value is set; aborted by a signal
 * @param {{ log?: (line: string) => void }} [options]
 * @returns {Promise<T>}
 */
export async function withSysctl(path, value, fn, { log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const old = readSysctl(path);
  let changed = false;
  const restore = () => {
    if (!changed) return;
    changed = false;
    try {
      writeFileSync(path, `${old}\n`);
    } catch (error) {
      log(`could NOT restore ${path} to ${old}: ${/** @type {Error} */ (error).message}; restore it by hand: echo '${old}' > ${path}`);
    }
  };
  const controller = new AbortController();
  /** @type {Map<string, () => void>} */
  const handlers = new Map();
  for (const name of RESTORING_SIGNALS) {
    handlers.set(name, () => {
      restore();
      log(`${name}: ${path} is back at ${old}`);
      process.exitCode = 128 + os.constants.signals[name];
      controller.abort(new Error(`${name} received`));
    });
  }
  for (const [name, handler] of handlers) process.on(name, handler);
  process.on('exit', restore);
  try {
    log(`setting ${path} from ${old} to ${value} (if this process is killed with SIGKILL: echo '${old}' > ${path})`);
    writeFileSync(path, `${value}\n`);
    changed = true;
    return await fn(controller.signal);
  } finally {
    restore();
    process.off('exit', restore);
    for (const [name, handler] of handlers) process.off(name, handler);
  }
}
