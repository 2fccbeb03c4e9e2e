/**
 * A real nginx as a child process: the reverse proxy of the proxy workload.
 * One nginx listens on loopback TCP ports, each proxying to one upstream (the
 * app server's TCP listener or its Unix socket), so a trial can alternate
 * blocks between the two upstream transports through the same nginx.
 *
 * nginx runs in the foreground (daemon off) in its own process group, with
 * a config written by toNginxConfig and everything it writes (pid, error log,
 * temp files) in a fresh private directory that stop() removes. It needs no
 * root and reads no system config. Started as root, nginx would run its
 * workers as `nobody`, who cannot reach a socket in a private 0700
 * directory, so then the config keeps them as the current user.
 */
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { RunError, UsageError } from './errors.js';
import { writeFileAtomic } from './files.js';
import { toNginxConfig } from './nginx-config.js';
import { launchNginx } from './nginx-process.js';

export { toNginxConfig } from './nginx-config.js';

/** @typedef {import('./nginx-process.js').NginxProcess} NginxProcess */

/** Where Debian and others put nginx, which may not be on a user's PATH. */
const SBIN_DIRS = ['/usr/sbin', '/usr/local/sbin'];
const INSTALL_HINT = 'install it (Debian/Ubuntu: apt-get install nginx) or give --nginx PATH';
/** Starts tried when a port we picked was taken meanwhile (the race between picking and nginx's bind). */
const START_ATTEMPTS = 3;

/** @param {string} path */
function isExecutableFile(path) {
  try {
    if (!fs.statSync(path).isFile()) return false;
    fs.accessSync(path, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The directories searched for nginx: PATH's, then /usr/sbin and /usr/local/sbin. */
function searchDirs() {
  return [...(process.env.PATH ?? '').split(delimiter).filter((dir) => isAbsolute(dir)), ...SBIN_DIRS];
}

/**
 * The nginx binary: `explicitPath` (--nginx), else `nginx` in the first of `dirs` that has it.
 * @param {string} [explicitPath]
 * @param {string[]} [dirs] default: searchDirs()
 * @returns {string} an absolute path
 */
export function findNginx(explicitPath, dirs = searchDirs()) {
  if (explicitPath !== undefined) {
    const path = resolve(explicitPath);
    if (!isExecutableFile(path)) throw new UsageError(`--nginx ${explicitPath}: not an executable file; ${INSTALL_HINT}`, 'ERR_NO_NGINX');
    return path;
  }
  const found = dirs.map((dir) => join(dir, 'nginx')).find(isExecutableFile);
  if (!found) throw new UsageError(`proxy workload needs nginx: not found on PATH or in /usr/sbin; ${INSTALL_HINT}`, 'ERR_NO_NGINX');
  return found;
}

/** A loopback port that was free a moment ago (another process may take it before nginx binds it). */
function pickPort() {
  return new Promise((resolvePort, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * The ports to listen on: each given port as it is, each 0 or missing one freshly picked.
 * @param {(number | undefined)[]} wanted
 */
async function choosePorts(wanted) {
  const taken = new Set(wanted.filter(Boolean));
  const ports = [];
  for (const port of wanted) {
    let chosen = port || 0;
    for (let i = 0; i < 10 && !chosen; i++) { // bounded: the kernel rarely hands out a port twice in a row
      const picked = await pickPort();
      if (!taken.has(picked)) chosen = picked;
    }
    if (!chosen) throw new RunError('nginx: cannot find a free loopback port', 'ERR_NGINX_START');
    taken.add(chosen);
    ports.push(chosen);
  }
  return ports;
}

/**
 * Start nginx proxying each listen port to its upstream, and wait until every
 * port answers GET / with a 2xx from its upstream.
 * @param {object} options
 * @param {string} options.binary from findNginx
 * @param {{ port?: number, upstream: import('./nginx-config.js').Upstream }[]} options.listen port 0 or missing: a free one is picked
 * @param {string} [options.dir] where nginx.conf is written and kept (a results directory); default: the private directory
 * @param {string} [options.configPath] default: nginx.conf in `dir`
 * @param {boolean} [options.keepalive] keep-alive connections to the upstream
 * @param {number} [options.workers] worker_processes, default 1
 * @param {number} [options.startTimeoutMs] default 5000
 * @param {string[]} [options.prefix] a command to run nginx under, e.g. ['taskset', '-c', '0']
 * @returns {Promise<NginxProcess>}
 */
export async function startNginx({ binary, listen, dir, configPath, keepalive = false, workers = 1, startTimeoutMs = 5000, prefix = [] }) {
  // validate everything before anything is created (stand-in ports where nginx's are still to be picked)
  const given = new Set(Array.isArray(listen) ? listen.map((entry) => entry?.port) : []);
  const standIns = Array.from({ length: 1024 }, (_, i) => 65535 - i).filter((port) => !given.has(port));
  toNginxConfig({ listen: Array.isArray(listen) ? listen.map((entry, i) => ({ ...entry, port: entry?.port || standIns[i] })) : listen, keepalive, workers, prefixDir: '/' });
  if (typeof binary !== 'string' || binary === '') throw new UsageError('--nginx: no nginx binary given', 'ERR_NO_NGINX');
  const command = binary.includes('/') ? resolve(binary) : binary; // nginx runs in its private directory
  const privateDir = await mkdtemp(join(os.tmpdir(), 'udsvstcp-nginx-'));
  const config = configPath ?? join(dir ?? privateDir, 'nginx.conf');
  const user = process.geteuid?.() === 0 ? os.userInfo().username : undefined;
  try {
    for (let attempt = 1; ; attempt++) {
      const ports = await choosePorts(listen.map((entry) => entry.port));
      const text = toNginxConfig({ listen: listen.map((entry, i) => ({ port: ports[i], upstream: entry.upstream })), keepalive, workers, prefixDir: privateDir, user });
      try {
        writeFileAtomic(config, text);
      } catch (error) {
        throw new RunError(`cannot write the nginx config ${config}: ${/** @type {Error} */ (error).message}`, /** @type {RunError} */ (error).code ?? 'ERR_WRITE');
      }
      try {
        return await launchNginx({ binary: command, prefix, privateDir, configPath: config, ports, startTimeoutMs });
      } catch (error) {
        const port = Number(/bind\(\) to [^ ]*:(\d+) failed/.exec(/** @type {Error} */ (error).message)?.[1]);
        const picked = listen.some((entry, i) => !entry.port && ports[i] === port);
        if (!(/** @type {RunError} */ (error).code === 'ERR_IN_USE' && picked && attempt < START_ATTEMPTS)) throw error;
      }
    }
  } catch (error) {
    await rm(privateDir, { recursive: true, force: true });
    throw error;
  }
}
