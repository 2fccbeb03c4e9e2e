/**
 * One nginx master process and its workers, started from a config file that
 * is already written, until every port answers through to its upstream; and
 * stopped again, group and all, with its private directory removed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { rm } from 'node:fs/promises';
import http from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { RunError } from './errors.js';
import { CLOCK_TICKS_PER_SECOND, childPids, readProcStat } from './proc-stat.js';

/** Readiness polls: one GET per port every POLL_MS until startTimeoutMs. */
const POLL_MS = 20;
/** stop(): SIGQUIT (graceful), then SIGTERM (fast), then SIGKILL to the group, each waited for this long. */
const STOP_WAITS_MS = { SIGQUIT: 3000, SIGTERM: 2000, SIGKILL: 2000 };

/**
 * @typedef {import('./nginx-config.js').Upstream} Upstream
 *
 * @typedef {object} NginxProcess
 * @property {number} pid the master process
 * @property {number[]} ports nginx's loopback TCP ports, in the order of `listen`
 * @property {string} configPath the nginx.conf it runs with
 * @property {string} privateDir nginx's prefix: pid, error log, temp files (removed by stop)
 * @property {() => number[]} workerPids the master's live children, from /proc
 * @property {() => { user: number, system: number }} cpuSeconds CPU of the master and its workers (and
 *   of workers that exited, once the master waited for them), from /proc; resolution 10 ms
 * @property {() => Promise<void>} stop SIGQUIT, SIGTERM, SIGKILL with bounded waits; always removes the private directory; safe to call twice
 * @property {() => boolean} alive
 * @property {Promise<{ code: number | null, signal: string | null }>} exited the master's exit
 */

/**
 * The last lines of nginx's error log, without time stamps and pids ('[emerg] bind() … failed').
 * @param {string} path
 * @returns {string[]}
 */
function logLines(path) {
  let text = '';
  try {
    const fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    try {
      const size = fs.fstatSync(fd).size;
      const tail = Buffer.alloc(Math.min(size, 8192));
      text = tail.subarray(0, fs.readSync(fd, tail, 0, tail.length, size - tail.length)).toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return [];
  }
  return text.split('\n')
    .map((line) => line.replace(/^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d /, '').replace(/ \d+#\d+: (\*\d+ )?/, ' ').trim())
    .filter(Boolean);
}

/**
 * One GET / with a fresh connection: its status, or what went wrong.
 * @param {number} port
 * @param {number} timeoutMs
 * @returns {Promise<string | number>}
 */
function probe(port, timeoutMs) {
  return new Promise((done) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/', agent: false, timeout: timeoutMs }, (response) => {
      response.resume();
      response.once('end', () => done(response.statusCode ?? 0));
      response.once('error', (error) => done(error.message));
    });
    request.once('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.once('error', (error) => done(/** @type {NodeJS.ErrnoException} */ (error).code ?? error.message));
  });
}

/**
 * Is any process of this process group left?
 * @param {number} pgid
 */
function groupAlive(pgid) {
  if (!(pgid > 0)) return false; // kill(-0) would be our own group
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * @param {number} pgid
 * @param {NodeJS.Signals} signal
 */
function signalGroup(pgid, signal) {
  if (!(pgid > 0)) return;
  try {
    process.kill(-pgid, signal);
  } catch {
    // gone already
  }
}

/** nginx instances started and not yet stopped (process group → private directory), ended if this process exits first. */
const live = new Map();
/** On exit (an uncaught error too) only synchronous calls run: SIGKILL to each group still there, and its directory removed. */
function killLeftovers() {
  for (const [pgid, dir] of live) {
    signalGroup(pgid, 'SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * @param {{ binary: string, prefix: string[], privateDir: string, configPath: string, ports: number[], startTimeoutMs: number }} options
 * @returns {Promise<NginxProcess>}
 */
export async function launchNginx({ binary, prefix, privateDir, configPath, ports, startTimeoutMs }) {
  const errorLog = join(privateDir, 'error.log');
  await rm(errorLog, { force: true }); // a failed start before this one wrote there
  const [command, ...args] = [...prefix, binary, '-p', `${privateDir}/`, '-c', configPath, '-e', errorLog];
  // own process group: a terminal's Ctrl-C goes to us, and we stop nginx and its workers together;
  // cwd: its private directory, so that not even a core dump lands anywhere else
  const child = spawn(command, args, { cwd: privateDir, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text) => {
    stderr = (stderr + text).slice(-4096);
  });
  let running = true;
  /** @type {Promise<{ code: number | null, signal: string | null }>} */
  const exited = new Promise((done) => {
    child.once('exit', (code, signal) => done({ code, signal }));
    child.once('error', (error) => {
      stderr += `\n${error.message}`;
      done({ code: null, signal: null });
    });
  });
  exited.then(() => {
    running = false;
  });
  const pid = child.pid ?? 0;
  if (pid > 0) {
    if (live.size === 0) process.once('exit', killLeftovers);
    live.set(pid, privateDir);
  }
  const why = () => logLines(errorLog).pop() || stderr.trim().split('\n').pop() || 'no message';
  // nginx retries a bind() that fails for 2.5 s before it gives up: the first [emerg] is the reason, and final
  const fatal = () => logLines(errorLog).find((line) => line.startsWith('[emerg]'));

  /** @param {NodeJS.Signals} signal */
  const signalMaster = (signal) => {
    if (running) child.kill(signal);
  };
  /** @param {number} ms */
  const waitExit = (ms) => Promise.race([exited.then(() => true), sleep(ms, false, { ref: false })]); // unref'd: once nginx is gone, the wait must not hold the process
  /** @type {Promise<void> | undefined} */
  let ending;
  /**
   * Master and workers gone, or an error saying which is left. Safe to call twice.
   * Not graceful while starting: nginx sets its signal handlers only after it
   * has bound its ports, and until then SIGQUIT's default action dumps core.
   * @param {boolean} graceful
   */
  const end = (graceful) => {
    ending ??= (async () => {
      if (running && graceful) signalMaster('SIGQUIT');
      if (running && !(graceful && (await waitExit(STOP_WAITS_MS.SIGQUIT)))) signalMaster('SIGTERM');
      if (running && !(await waitExit(STOP_WAITS_MS.SIGTERM))) signalGroup(pid, 'SIGKILL');
      if (running) await waitExit(STOP_WAITS_MS.SIGKILL);
      // workers outlive a killed master: end the whole group
      for (let i = 0; i < 100 && groupAlive(pid); i++) {
        signalGroup(pid, 'SIGKILL');
        await sleep(POLL_MS);
      }
      if (running) throw new RunError(`nginx (pid ${pid}) did not exit after SIGKILL`, 'ERR_NGINX_STOP');
      live.delete(pid);
      if (live.size === 0) process.off('exit', killLeftovers);
    })();
    return ending;
  };

  try {
    await waitReady({ ports, startTimeoutMs, exited, why, fatal, alive: () => running });
  } catch (error) {
    await end(false).catch(() => {}); // the caller removes the private directory, or starts again in it
    throw error;
  }

  /** @type {Promise<void> | undefined} */
  let stopping;
  const stop = () => {
    stopping ??= end(true).finally(() => rm(privateDir, { recursive: true, force: true }));
    return stopping;
  };

  /** @type {number[]} */
  let workers = [];
  const workerPids = () => {
    workers = running ? childPids(pid) : [];
    return workers;
  };
  workerPids(); // so that the first cpuSeconds() need not look for them (a scan of /proc, without children lists)
  return {
    pid,
    ports,
    configPath,
    privateDir,
    exited,
    alive: () => running,
    stop,
    workerPids,
    cpuSeconds() {
      const master = readProcStat(pid);
      if (!running || !master) throw new RunError('nginx is not running', 'ERR_NGINX');
      let stats = workers.map(readProcStat);
      // a worker gone or replaced since the last look: find them again (a scan of /proc where the kernel lacks children lists)
      if (workers.length === 0 || stats.some((s) => !s || s.ppid !== pid)) stats = workerPids().map(readProcStat);
      let user = master.utime + master.cutime;
      let system = master.stime + master.cstime;
      for (const s of stats) {
        if (s?.ppid !== pid) continue;
        user += s.utime;
        system += s.stime;
      }
      return { user: user / CLOCK_TICKS_PER_SECOND, system: system / CLOCK_TICKS_PER_SECOND };
    },
  };
}

/**
 * Poll every port with GET / until each has answered 2xx once; fail when
 * nginx exits or logs an [emerg], or the time is up. Each tick (POLL_MS)
 * sends a GET to every port that is not ready and has none out, and looks at
 * nginx. Bounded in count and in time.
 * @param {{ ports: number[], startTimeoutMs: number, exited: Promise<{ code: number | null, signal: string | null }>,
 *   why: () => string, fatal: () => string | undefined, alive: () => boolean }} options
 */
async function waitReady({ ports, startTimeoutMs, exited, why, fatal, alive }) {
  const deadline = Date.now() + startTimeoutMs;
  const maxTicks = Math.ceil(startTimeoutMs / POLL_MS) + 1;
  /** @type {Map<number, string | number>} */
  const last = new Map();
  const pending = new Set(ports);
  /** @type {Set<number>} */
  const asking = new Set();
  let wake = () => {};
  for (let tick = 0; tick < maxTicks && pending.size > 0 && Date.now() < deadline; tick++) {
    for (const port of pending) {
      if (asking.has(port)) continue; // a GET still out (a listener that accepts and never answers)
      asking.add(port);
      probe(port, Math.max(50, Math.min(1000, deadline - Date.now()))).then((answer) => {
        last.set(port, answer);
        asking.delete(port);
        if (typeof answer === 'number' && answer >= 200 && answer < 300) pending.delete(port);
        if (pending.size === 0) wake();
      });
    }
    const ready = new Promise((resolve) => { wake = () => resolve(undefined); });
    const died = await Promise.race([
      exited.then(() => true),
      ready.then(() => false),
      sleep(Math.min(POLL_MS, Math.max(1, deadline - Date.now()))).then(() => false),
    ]);
    if (died || !alive()) {
      const { code, signal } = await exited;
      const line = fatal() ?? why();
      throw new RunError(`nginx exited (${signal ?? `code ${code}`}) before answering: ${line}`, /Address already in use/.test(line) ? 'ERR_IN_USE' : 'ERR_NGINX_START');
    }
    const emerg = fatal();
    if (emerg) throw new RunError(`nginx failed to start: ${emerg}`, /Address already in use/.test(emerg) ? 'ERR_IN_USE' : 'ERR_NGINX_START');
  }
  if (pending.size > 0) {
    const port = [...pending][0];
    const answer = last.get(port);
    const got = answer === undefined ? 'no answer' : typeof answer === 'number' ? `HTTP ${answer}` : answer;
    throw new RunError(`nginx did not answer GET / with 2xx on 127.0.0.1:${port} within ${startTimeoutMs} ms (last: ${got}; error log: ${why()})`, 'ERR_NGINX_START');
  }
}
