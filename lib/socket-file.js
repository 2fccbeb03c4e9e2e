/**
 * Unix domain socket files: path limits, private directories, stale sockets.
 * Rule: never delete a file unless it is a socket that nobody answers on,
 * or the socket this process created.
 */
import net from 'node:net';
import { lstat, mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from './errors.js';

/** sun_path holds 108 bytes on Linux, 104 on macOS, including the final NUL. */
export const MAX_SOCKET_PATH_BYTES = process.platform === 'darwin' ? 103 : 107;

/**
 * Refuse a path the kernel would silently truncate.
 * @param {string} path
 * @param {string} flag
 */
export function checkSocketPath(path, flag) {
  if (typeof path !== 'string' || path.length === 0) {
    throw new UsageError(`${flag} must be a file path for a Unix domain socket`);
  }
  const bytes = Buffer.byteLength(path);
  if (bytes > MAX_SOCKET_PATH_BYTES) {
    throw new UsageError(`${flag} path is ${bytes} bytes; the limit on ${process.platform} is ${MAX_SOCKET_PATH_BYTES} bytes: ${path}`, 'ERR_PATH_TOO_LONG');
  }
  return path;
}

/**
 * A fresh private directory (mode 0700) under the OS temp dir.
 * @param {string} [prefix]
 */
export function createPrivateDir(prefix = 'udsvstcp-') {
  return mkdtemp(join(tmpdir(), prefix));
}

/**
 * Remove a private directory this process created (and only that).
 * @param {string} dir
 */
export async function removePrivateDir(dir) {
  await rm(dir, { recursive: true, force: true });
}

/**
 * Could anything be listening on this socket path? False only when the connection is refused.
 * @param {string} path
 * @returns {Promise<boolean>}
 */
function isAnswering(path) {
  return new Promise((resolve) => {
    const socket = net.connect({ path });
    const done = (/** @type {boolean} */ answered) => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(1000, () => done(true)); // a slow listener is still a listener
    socket.once('connect', () => done(true));
    // only a refused connection proves nobody listens; EAGAIN (backlog full), EACCES … may be a live server
    socket.once('error', (error) => done(/** @type {NodeJS.ErrnoException} */ (error).code !== 'ECONNREFUSED'));
  });
}

/**
 * Make `path` ready to listen on. A missing path is fine; a socket nobody
 * answers on (left by a crash) is removed; a live socket, or anything that is
 * not a socket, is refused and left exactly as it is.
 * @param {string} path
 * @param {string} flag
 * @returns {Promise<'free' | 'replaced-stale'>}
 */
export async function prepareSocketPath(path, flag) {
  checkSocketPath(path, flag);
  let stat;
  try {
    stat = await lstat(path);
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return 'free';
    throw new UsageError(`${flag} ${path}: ${/** @type {Error} */ (error).message}`);
  }
  if (!stat.isSocket()) {
    const kind = stat.isSymbolicLink() ? 'a symbolic link' : stat.isDirectory() ? 'a directory' : 'not a socket';
    throw new UsageError(`${flag} ${path} exists and is ${kind}; refusing to replace it (choose another path)`, 'ERR_NOT_SOCKET');
  }
  if (await isAnswering(path)) {
    throw new UsageError(`${flag} ${path} is in use by a live server (choose another path or stop that server)`, 'ERR_IN_USE');
  }
  const again = await lstat(path);
  if (again.isSocket() && again.ino === stat.ino && again.dev === stat.dev) {
    await unlink(path);
  }
  return 'replaced-stale';
}

/**
 * Remove the socket file this process created, if it is still that file.
 * @param {string} path
 * @param {{ ino: number, dev: number } | undefined} created the identity recorded after listen
 */
export async function removeOwnSocket(path, created) {
  if (!created) return;
  try {
    const stat = await lstat(path);
    if (stat.isSocket() && stat.ino === created.ino && stat.dev === created.dev) await unlink(path);
  } catch {
    // already gone: server.close() unlinks it on most platforms
  }
}
