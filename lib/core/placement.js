/**
 * Where a thread runs: the CPU it last ran on (/proc/<pid>/task/<tid>/stat, field 39) and its thread id
 * (/proc/thread-self). The client reads both ends of a lane at each block's edges, outside the timed window and the
 * counters', so a trial can say whether a lane's ends shared a CPU (lib/trial/lane-check.js). Null where /proc cannot say.
 */
import fs from 'node:fs';
import { readText } from './environment.js';

/** The index of `processor` among the fields that follow the command name's closing parenthesis (field 3 is index 0). */
const PROCESSOR = 39 - 3;

/**
 * The CPU a thread last ran on, from the text of its stat file.
 * @param {string} text
 */
export function processorOf(text) {
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const cpu = Number(text.slice(close + 2).split(' ')[PROCESSOR]);
  return Number.isInteger(cpu) && cpu >= 0 ? cpu : null;
}

/**
 * @param {number | 'self'} pid
 * @param {number} [tid] default: the calling thread when pid is 'self', else the process's main thread
 */
export function cpuOf(pid, tid) {
  const text = readText(pid === 'self' && tid === undefined ? '/proc/thread-self/stat' : `/proc/${pid}/task/${tid ?? pid}/stat`);
  return text === null ? null : processorOf(text);
}

/**
 * The calling thread's id (Linux), null where /proc/thread-self is missing.
 */
export function ownThreadId() {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}
