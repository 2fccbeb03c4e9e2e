/**
 * The server fixture in a child process of its own (lib/server-main.js),
 * with a control channel (Node IPC, not the measured sockets) for CPU,
 * event-loop and byte counts.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { RunError } from './errors.js';
import { isOwnedSocket, releaseSocket } from './socket-file.js';

const SERVER_MAIN = fileURLToPath(new URL('./server-main.js', import.meta.url));

/**
 * @typedef {object} ServerProcess
 * @property {number} pid
 * @property {{ host: string, port: number }} tcp
 * @property {{ path: string }} uds
 * @property {() => Promise<import('./server-stats.js').ServerStats>} snapshot
 * @property {() => Promise<void>} stop SIGTERM, then SIGKILL after 5 s; resolves once what it left is removed
 * @property {() => void} kill SIGKILL now (a second Ctrl-C)
 * @property {() => boolean} alive
 * @property {Promise<{ code: number | null, signal: string | null }>} exited
 * @property {Promise<import('./socket-file.js').SocketRelease | undefined>} cleaned after exit: what a
 *   killed server left behind (its socket, if still its own, and its private directories) is removed
 */

/**
 * @param {object} [options]
 * @param {'echo' | 'sink' | 'greeter' | 'http'} [options.handler] what the server answers with (default echo)
 * @param {string} [options.host]
 * @param {string} [options.path] UDS path; default: a fresh private directory chosen by the server
 * @param {boolean} [options.greeting]
 * @param {boolean} [options.noDelay]
 * @param {string[]} [options.prefix] a command to run node under, e.g. ['taskset', '-c', '0']
 * @param {number} [options.startTimeoutMs]
 * @param {NodeJS.ProcessEnv} [options.env] added to this process's environment (e.g. TMPDIR)
 * @returns {Promise<ServerProcess>}
 */
export async function spawnServer({ handler = 'echo', host = '127.0.0.1', path, greeting = false, noDelay = true, prefix = [], startTimeoutMs = 10_000, env } = {}) {
  /** @type {import('./server-main.js').ServerProcessOptions} */
  const options = { handler, host, path, greeting, noDelay };
  const [command, ...commandArgs] = [...prefix, process.execPath, SERVER_MAIN, JSON.stringify(options)];
  // own process group: a terminal's Ctrl-C goes to the parent, which stops the server itself
  const child = spawn(command, commandArgs, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], detached: true, env: env ? { ...process.env, ...env } : process.env });

  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text) => {
    stderr = (stderr + text).slice(-4096);
  });
  /** @type {Promise<{ code: number | null, signal: string | null }>} */
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let running = true;
  exited.then(() => {
    running = false;
  });
  const lastLine = () => stderr.trim().split('\n').pop() ?? '';

  /** @type {import('./socket-file.js').OwnedSocket | undefined} */
  let owned;
  // whatever way the server ends (SIGKILL included), remove what it bound and left behind
  const cleaned = exited.then(() => (owned ? releaseSocket(owned) : undefined)).catch(() => undefined);

  /** @type {{ tcp: { host: string, port: number }, uds: { path: string }, owned?: unknown }} */
  const listening = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new RunError(`${handler} server did not start within ${startTimeoutMs} ms`, 'ERR_SERVER'));
    }, startTimeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new RunError(`cannot start the ${handler} server: ${error.message}`, 'ERR_SERVER'));
    });
    child.on('message', function onMessage(/** @type {any} */ message) {
      if (message?.type !== 'listening') return;
      clearTimeout(timer);
      child.off('message', onMessage);
      if (isOwnedSocket(message.owned)) owned = message.owned;
      resolve(message);
    });
    exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new RunError(lastLine().replace(/^udsvstcp: (error: )?/, '') || `${handler} server exited with code ${code}`, code === 2 ? 'ERR_USAGE' : 'ERR_SERVER'));
    });
  });

  let nextId = 0;
  /** @type {Map<number, (stats: import('./server-stats.js').ServerStats) => void>} */
  const pending = new Map();
  child.on('message', (/** @type {any} */ message) => {
    if (message?.type === 'stats') {
      pending.get(message.id)?.(message.stats);
      pending.delete(message.id);
    }
  });

  return {
    pid: /** @type {number} */ (child.pid),
    tcp: listening.tcp,
    uds: listening.uds,
    exited,
    cleaned,
    alive: () => running,
    kill: () => { if (running) child.kill('SIGKILL'); },
    snapshot() {
      if (!running || !child.connected) return Promise.reject(new RunError(`${handler} server is not running`, 'ERR_SERVER'));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new RunError(`${handler} server did not answer a stats request within 2 s`, 'ERR_SERVER'));
        }, 2000);
        pending.set(id, (stats) => {
          clearTimeout(timer);
          resolve(stats);
        });
        child.send({ type: 'stats', id });
      });
    },
    async stop() {
      if (running) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      await cleaned;
    },
  };
}
