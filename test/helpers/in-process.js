/**
 * main() in this process: what it leaves running is checked here, since
 * there is no child process whose exit would end it.
 */
import { expect } from 'vitest';
import { callMain, expectOneLineUsageError } from './cli.js';
import { descendants } from './processes.js';
import { waitFor } from './wait.js';

const SIGNALS = /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP']);

/**
 * What this process holds open that main() could have started: handles by
 * type (servers, sockets, child processes, timers), signal listeners, and
 * child processes.
 */
function holding() {
  /** @type {Record<string, number>} */
  const handles = {};
  for (const type of process.getActiveResourcesInfo()) {
    if (/^FSReq|^Immediate$/.test(type)) continue; // a file read finishing is not something started
    handles[type] = (handles[type] ?? 0) + 1;
  }
  const signals = Object.fromEntries(SIGNALS.map((s) => [s, process.listenerCount(s)]));
  const children = descendants(process.pid).map((p) => p.cmdline);
  return { handles, signals, children };
}

/**
 * main(args) in this process is a usage error (exit 2, nothing on stdout,
 * one line on stderr matching `message`), and it left nothing running: no
 * new handle (server, socket, child, timer), signal listener or child process.
 * @param {string[]} args
 * @param {RegExp | string} message
 */
export async function expectRefused(args, message) {
  const before = holding();
  const result = await callMain(args);
  expectOneLineUsageError(result, message);
  await new Promise((resolve) => setImmediate(resolve));
  const after = holding();
  // handles come and go on their own (a timer of the test runner's ending): none of a type may be new
  const added = Object.fromEntries(Object.entries(after.handles).filter(([type, n]) => n > (before.handles[type] ?? 0)));
  expect({ ...after, handles: added }, 'main() left something running').toEqual({ ...before, handles: {} });
  return result;
}

/**
 * main(args) in this process, for a command that starts things (a server,
 * a trial process, nginx): its result once it returns, having checked that
 * everything it started has ended (within a bounded wait: a child's exit is
 * seen a moment after it is reaped) and that it left no handle, signal
 * listener or child process behind.
 * @param {string[]} args
 */
export async function callMainLeavingNothing(args) {
  const before = holding();
  const result = await callMain(args);
  /** @type {ReturnType<typeof holding>} */
  let left = before;
  const gone = await waitFor(() => {
    const now = holding();
    left = {
      handles: Object.fromEntries(Object.entries(now.handles).filter(([type, n]) => n > (before.handles[type] ?? 0))),
      signals: now.signals,
      children: now.children.filter((c) => !before.children.includes(c)),
    };
    return left.children.length === 0 && Object.keys(left.handles).length === 0 && JSON.stringify(left.signals) === JSON.stringify(before.signals);
  }, { timeoutMs: 10_000, everyMs: 20 });
  expect(gone, `main(${args.join(' ')}) left something running: ${JSON.stringify(left)}\n${result.stderr}`).toBe(true);
  return result;
}
