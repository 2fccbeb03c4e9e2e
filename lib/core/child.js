/**
 * Every child process of ours has one lifecycle, here (startChild): in a process group of its own, so a terminal's
 * Ctrl-C reaches us only, and we stop it; the child exits when its channel closes, so it never outlives its parent
 * (a SIGKILL included: the kernel closes the channel). The same request/reply channel (createChannel) runs over a
 * worker's port: a request carries an `id`, its reply is `{ type: 'reply', id, value }` or `{ …, error, code }`;
 * anything else (a packet of a message transport) goes to onOther.
 */
import { spawn } from 'node:child_process';
import { RunError } from './errors.js';
import { describeResourceCrash, keepOutput, lastMeaningfulLine } from './resources.js';
import { formatDuration } from './units.js';

/** After a child's exit, its channel and stderr have this long to end (something else may hold them). */
const END_GRACE_MS = 2000;

/**
 * @typedef {object} Channel
 * @property {(type: string, body?: Record<string, unknown>, options?: { timeoutMs?: number }) => Promise<any>} request
 *   rejects when the other end replies with an error, ends, or (with timeoutMs) does not answer in time
 * @property {(type: string, handler: (message: any) => unknown) => void} serve answer each request of this type
 *   with what the handler returns (or an error with its message and code)
 * @property {(type: string, fn: (message: any) => void) => void} on every message of this type
 * @property {(type: string) => Promise<any>} next the next message of this type
 * @property {(fn: (message: unknown) => void) => void} onOther messages that are not ours (packets)
 * @property {(type: string, body?: Record<string, unknown>, done?: () => void) => void} send an event
 * @property {(error: Error) => void} end the other end is gone: pending and later requests fail with `error`
 */

/**
 * Requests by id, events and replies over any message port.
 * @param {object} port
 * @param {(message: unknown, done?: () => void) => void} port.post
 * @param {(listener: (message: any) => void) => void} port.listen
 * @param {string} [port.key] the key that names a message (default 'type')
 * @param {string} [port.what] who is at the other end, for messages
 * @returns {Channel}
 */
export function createChannel({ post, listen, key = 'type', what = 'the other end' }) {
  let nextId = 0;
  /** @type {Map<number, { resolve: (value: any) => void, reject: (error: Error) => void, timer?: NodeJS.Timeout }>} */
  const pending = new Map();
  /** @type {Map<string, ((message: any) => void)[]>} */
  const listeners = new Map();
  /** @type {Map<string, (message: any) => unknown>} */
  const handlers = new Map();
  /** @type {(message: unknown) => void} */
  let other = () => {};
  /** @type {Error | undefined} */
  let ended;

  const reply = (/** @type {number} */ id, /** @type {Record<string, unknown>} */ body) => post({ [key]: 'reply', id, ...body }, () => {});
  const settle = (/** @type {number} */ id) => {
    const waiter = pending.get(id);
    pending.delete(id);
    clearTimeout(waiter?.timer);
    return waiter;
  };
  listen((message) => {
    const type = message !== null && typeof message === 'object' && !ArrayBuffer.isView(message) ? message[key] : undefined;
    if (typeof type !== 'string') {
      other(message);
      return;
    }
    if (type === 'reply') {
      const waiter = settle(message.id);
      if (typeof message.error === 'string') waiter?.reject(new RunError(`${message.error}`, typeof message.code === 'string' ? message.code : 'ERR_CHILD'));
      else waiter?.resolve(message.value);
      return;
    }
    const handler = handlers.get(type);
    if (handler && typeof message.id === 'number') {
      Promise.resolve().then(() => handler(message)).then(
        (value) => reply(message.id, { value }),
        (error) => reply(message.id, { error: String(error?.message ?? error), code: error?.code }),
      );
    }
    for (const fn of listeners.get(type) ?? []) fn(message);
  });

  /** @type {Channel['on']} */
  const on = (type, fn) => { listeners.set(type, [...(listeners.get(type) ?? []), fn]); };
  return {
    request(type, body = {}, { timeoutMs } = {}) {
      if (ended) return Promise.reject(ended);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
          settle(id);
          reject(new RunError(`${what} did not answer a ${type} request within ${formatDuration(timeoutMs)}`, 'ERR_SERVER'));
        }, timeoutMs);
        pending.set(id, { resolve, reject, timer });
        post({ [key]: type, id, ...body }, () => {});
      });
    },
    serve: (type, handler) => { handlers.set(type, handler); },
    on,
    next: (type) => new Promise((resolve) => {
      const fn = (/** @type {any} */ message) => {
        listeners.set(type, (listeners.get(type) ?? []).filter((f) => f !== fn));
        resolve(message);
      };
      on(type, fn);
    }),
    onOther: (fn) => { other = fn; },
    send: (type, body = {}, done = () => {}) => post({ [key]: type, ...body }, done),
    end(error) {
      ended ??= error;
      for (const id of [...pending.keys()]) settle(id)?.reject(/** @type {Error} */ (ended));
    },
  };
}

/**
 * @typedef {{ code: number | null, signal: string | null, error?: Error }} Exit error: it could not be started
 *
 * @typedef {object} Child
 * @property {number} pid 0 if it could not be started
 * @property {import('node:child_process').ChildProcess} process
 * @property {Channel} channel requests fail once it has ended, with endWords()
 * @property {() => string} stderr its first and last 4 KiB
 * @property {Promise<Exit>} exited once it has exited and its channel and stderr have ended (each within 2 s)
 * @property {() => boolean} alive
 * @property {(exit: Exit, after?: string) => string} endWords why it ended, in one line: a resource crash
 *   (V8 out of memory, EMFILE), else how it ended (`after`, e.g. ' before reporting') and its last line of stderr
 * @property {(type: string, timeoutMs: number) => Promise<any>} ready its first message of that type; fails
 *   (and SIGKILLs it) if it ends first or does not send it within timeoutMs
 * @property {(signal?: NodeJS.Signals) => void} kill SIGKILL (default) to its process group; another signal to it alone
 * @property {(options?: { signal?: NodeJS.Signals | null, disconnect?: boolean, graceMs?: number }) => Promise<Exit>} stop
 *   send `signal` (default SIGTERM, and SIGCONT should it be stopped; null: none) or close its channel,
 *   SIGKILL its group if it has not ended after graceMs (default 5 s); resolves once it has ended
 */

/**
 * Start a child with an IPC channel, in a process group of its own.
 * @param {object} options
 * @param {string} options.what who it is, for messages ('the echo server')
 * @param {string[]} options.argv its command line, e.g. [process.execPath, entry, JSON options]
 * @param {string[]} [options.prefix] a command to run it under, e.g. ['taskset', '-c', '0']
 * @param {NodeJS.ProcessEnv} [options.env] added to this process's environment
 * @param {'json' | 'advanced'} [options.serialization] of its channel
 * @param {boolean} [options.stdout] a pipe for its stdout (default: ignored)
 * @param {string} [options.key] the key that names a message on its channel (default 'type')
 * @returns {Child}
 */
export function startChild({ what, argv, prefix = [], env, serialization, stdout = false, key }) {
  const [command, ...args] = [...prefix, ...argv];
  const child = spawn(command, args, { stdio: ['ignore', stdout ? 'pipe' : 'ignore', 'pipe', 'ipc'], detached: true, serialization, env: env ? { ...process.env, ...env } : process.env });
  const stderr = keepOutput(child.stderr);
  let running = child.pid !== undefined;
  const channel = createChannel({
    what,
    key,
    listen: (listener) => child.on('message', listener),
    post: (message, done) => {
      if (child.connected) child.send(/** @type {any} */ (message), done);
    },
  });
  /** @type {Promise<Exit>} */
  const exited = new Promise((resolve) => {
    const ends = [
      new Promise((ended) => { if (!child.connected) ended(undefined); else child.once('disconnect', () => ended(undefined)); }),
      new Promise((ended) => { if (!child.stderr) ended(undefined); else child.stderr.once('close', () => ended(undefined)); }),
    ];
    child.once('exit', (code, signal) => {
      running = false;
      const timer = setTimeout(() => resolve({ code, signal }), END_GRACE_MS); // bounded: another process may hold them
      Promise.all(ends).then(() => {
        clearTimeout(timer);
        resolve({ code, signal });
      });
    });
    // a send to a child that is exiting fails: its exit says why
    child.on('error', (error) => { if (child.pid === undefined) resolve({ code: null, signal: null, error }); });
  });
  /** @type {Child['endWords']} */
  const endWords = ({ code, signal, error }, after = '') => {
    if (error) return `cannot start ${what}: ${error.message}`;
    const text = stderr();
    const last = lastMeaningfulLine(text);
    return describeResourceCrash(text, what) ?? `${what} ${signal ? `was killed by ${signal}` : `exited with code ${code}`}${after}${last ? `: ${last}` : ''}`;
  };
  exited.then((exit) => channel.end(new RunError(endWords(exit), 'ERR_CLOSED')));

  /** @type {Child['kill']} */
  const kill = (signal = 'SIGKILL') => {
    if (!running) return;
    if (signal === 'SIGKILL') {
      try {
        process.kill(-(/** @type {number} */ (child.pid)), signal); // what it runs under, or started, too
        return;
      } catch {
        // not a group leader (yet): the child alone
      }
    }
    child.kill(signal);
  };
  return {
    pid: child.pid ?? 0,
    process: child,
    channel,
    stderr,
    exited,
    alive: () => running,
    endWords,
    async ready(type, timeoutMs) {
      /** @type {NodeJS.Timeout | undefined} */
      let timer;
      try {
        return await Promise.race([
          channel.next(type),
          exited.then((exit) => {
            const line = exit.error ? '' : lastMeaningfulLine(stderr()).replace(/^udsvstcp: (error: )?/, '');
            throw new RunError(describeResourceCrash(stderr(), what) ?? (line || endWords(exit)), exit.code === 2 ? 'ERR_USAGE' : 'ERR_SERVER');
          }),
          new Promise((_, reject) => {
            timer = setTimeout(() => {
              kill();
              reject(new RunError(`${what} did not start within ${timeoutMs} ms`, 'ERR_SERVER'));
            }, timeoutMs);
          }),
        ]);
      } finally {
        clearTimeout(timer);
      }
    },
    kill,
    async stop({ signal = 'SIGTERM', disconnect = false, graceMs = 5000 } = {}) {
      if (running) {
        if (disconnect && child.connected) child.disconnect();
        if (signal) kill(signal);
        if (signal && signal !== 'SIGKILL') kill('SIGCONT'); // a stopped (SIGSTOP) child would hold its signal until the SIGKILL
      }
      const timer = setTimeout(() => kill(), graceMs);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    },
  };
}

/** The child's side: its channel to the parent, or undefined without one. @returns {Channel | undefined} */
export function parentChannel() {
  if (!process.send) return undefined;
  return createChannel({
    what: 'the parent',
    listen: (listener) => process.on('message', listener),
    post: (message, done) => {
      if (process.connected) process.send?.(message, undefined, undefined, done);
      else done?.();
    },
  });
}

/**
 * Run `fn` when the parent goes away (its channel closes), by default exit: a child never outlives its starter.
 * @param {() => void} [fn]
 */
export function onParentGone(fn = () => process.exit(0)) {
  if (process.send) process.once('disconnect', fn);
}

/** @type {Set<() => void>} what this process started and must end if it exits first */
const atExit = new Set();
const endAll = () => { for (const end of atExit) end(); };

/**
 * Run `end` if this process exits (an uncaught error too) before the returned function is called: what it started must
 * not outlive it. Only synchronous calls run on exit (a SIGKILL runs nothing: a guard or the session's record covers that).
 * @param {() => void} end synchronous
 * @returns {() => void} forget it: it has ended otherwise
 */
export function endOnExit(end) {
  if (atExit.size === 0) process.once('exit', endAll);
  atExit.add(end);
  return () => {
    if (atExit.delete(end) && atExit.size === 0) process.off('exit', endAll);
  };
}
