/**
 * Unix domain socket files: path limits, private directories, stale sockets,
 * and ownership. Rule: never delete a file unless it is a socket that nobody
 * answers on, or the very socket (same inode) this process bound.
 *
 * libuv unlinks a listening socket's path when the server closes, with no
 * check of what the path now is. So a socket is bound under a temporary name
 * in a private staging directory next to the requested path, hard-linked onto
 * the requested path (link() never replaces anything) and its temporary name
 * removed: libuv's unlink at close then hits a name in our own directory, and
 * the requested path is removed only by releaseSocket(), after an inode check.
 */
import net from 'node:net';
import { link, lstat, mkdtemp, rmdir, stat as statPath, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { UsageError } from './errors.js';

/** sun_path holds 108 bytes on Linux, 104 on macOS, including the final NUL. */
export const MAX_SOCKET_PATH_BYTES = process.platform === 'darwin' ? 103 : 107;

/** The staging directory's name: this prefix and six random characters (mkdtemp). */
const STAGING_PREFIXES = ['.udsvstcp-', '.u'];

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

/** @param {unknown} error */
const codeOf = (error) => /** @type {NodeJS.ErrnoException} */ (error).code;

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
    socket.once('error', (error) => done(codeOf(error) !== 'ECONNREFUSED'));
  });
}

/** @param {import('node:fs').Stats} stat */
function describeKind(stat) {
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isSocket()) return 'another socket';
  if (stat.isFile()) return 'a regular file';
  return 'not a socket';
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
  const parent = dirname(path);
  try {
    if (!(await statPath(parent)).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
  } catch (error) {
    const why = codeOf(error) === 'ENOENT' ? 'does not exist' : codeOf(error) === 'ENOTDIR' ? 'is not a directory' : `cannot be read (${codeOf(error) ?? /** @type {Error} */ (error).message})`;
    throw new UsageError(`${flag} ${path}: the directory ${parent} ${why}; give a socket path in an existing directory`, 'ERR_NO_DIR');
  }
  let stat;
  try {
    stat = await lstat(path);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return 'free';
    throw new UsageError(`${flag} ${path}: ${/** @type {Error} */ (error).message}`);
  }
  if (!stat.isSocket()) {
    const kind = stat.isFile() ? 'not a socket' : describeKind(stat);
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
 * @typedef {object} OwnedSocket what this process bound, and may remove
 * @property {string} path the requested socket path
 * @property {string} staging our private 0700 directory beside it, where the socket was bound
 * @property {number} ino
 * @property {number} dev
 * @property {string} [privateDir] our private directory holding `path`, removed with it
 */

/**
 * @param {net.Server} server
 * @param {string} path
 */
function listenPath(server, path) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ path }, () => {
      server.off('error', reject);
      resolve(undefined);
    });
  });
}

/**
 * Listen on `path` (prepared by prepareSocketPath or in a private directory)
 * such that closing the server can never remove anything but our own names.
 * @param {net.Server} server
 * @param {string} path
 * @param {string} flag named in errors
 * @param {string} [privateDir] our directory holding `path`
 * @returns {Promise<OwnedSocket>}
 */
export async function listenOwned(server, path, flag, privateDir) {
  const parent = dirname(path);
  const fits = (/** @type {string} */ prefix) => Buffer.byteLength(join(parent, `${prefix}XXXXXX`, 's')) <= MAX_SOCKET_PATH_BYTES;
  const prefix = STAGING_PREFIXES.find(fits);
  if (prefix === undefined) {
    throw new UsageError(`${flag} ${path}: udsvstcp binds the socket first as ${join(parent, '.uXXXXXX', 's')}, which is over the limit of ${MAX_SOCKET_PATH_BYTES} bytes on ${process.platform}; use a shorter directory`, 'ERR_PATH_TOO_LONG');
  }
  let staging;
  try {
    staging = await mkdtemp(join(parent, prefix));
  } catch (error) {
    throw new UsageError(`${flag} ${path}: cannot create a socket in ${parent}: ${codeOf(error) ?? /** @type {Error} */ (error).message}`, 'ERR_NO_DIR');
  }
  const temporary = join(staging, 's');
  try {
    await listenPath(server, temporary);
    try {
      await link(temporary, path); // never replaces: EEXIST if anything appeared at path meanwhile
    } catch (error) {
      if (codeOf(error) === 'EEXIST') throw new UsageError(`${flag} ${path} is in use (it appeared while we were binding)`, 'ERR_IN_USE');
      throw new UsageError(`${flag} ${path}: cannot create the socket file: ${codeOf(error) ?? /** @type {Error} */ (error).message}`);
    }
    await unlink(temporary);
    const stat = await lstat(path);
    return { path, staging, ino: stat.ino, dev: stat.dev, privateDir };
  } catch (error) {
    await new Promise((resolve) => server.close(() => resolve(undefined)));
    await unlink(temporary).catch(() => {});
    await rmdir(staging).catch(() => {});
    throw error;
  }
}

/**
 * @typedef {{ socket: 'removed' | 'gone' | 'replaced', detail: string, left: string[] }} SocketRelease
 *   left: our own directories that could not be removed because something else is inside
 */

/**
 * Remove what listenOwned made, and only that: the socket file if it is still
 * the inode we bound (a path replaced meanwhile is left alone and reported),
 * the empty staging directory, and our private directory if it is empty.
 * Safe to call twice, and from another process once the server has exited.
 * @param {OwnedSocket} owned
 * @returns {Promise<SocketRelease>}
 */
export async function releaseSocket(owned) {
  /** @type {SocketRelease} */
  const result = { socket: 'gone', detail: `${owned.path} was already gone`, left: [] };
  try {
    const stat = await lstat(owned.path);
    if (stat.isSocket() && stat.ino === owned.ino && stat.dev === owned.dev) {
      await unlink(owned.path);
      Object.assign(result, { socket: 'removed', detail: `removed ${owned.path}` });
    } else {
      Object.assign(result, { socket: 'replaced', detail: `${owned.path} was replaced while serving (it is now ${describeKind(stat)}); left it alone` });
    }
  } catch (error) {
    if (codeOf(error) !== 'ENOENT') Object.assign(result, { socket: 'replaced', detail: `${owned.path}: ${codeOf(error)}; left it alone` });
  }
  for (const dir of [owned.staging, owned.privateDir]) {
    if (!dir) continue;
    try {
      await rmdir(dir);
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') result.left.push(dir);
    }
  }
  return result;
}

/**
 * Is this OwnedSocket-shaped value safe to act on (it came over IPC)?
 * Its directories must be udsvstcp's own names beside or above the socket.
 * @param {any} value
 * @returns {value is OwnedSocket}
 */
export function isOwnedSocket(value) {
  if (!value || typeof value.path !== 'string' || typeof value.staging !== 'string' || !Number.isInteger(value.ino) || !Number.isInteger(value.dev)) return false;
  const stagingOk = dirname(value.staging) === dirname(value.path) && STAGING_PREFIXES.some((p) => basename(value.staging).startsWith(p));
  const privateOk = value.privateDir === undefined || (typeof value.privateDir === 'string' && dirname(value.path) === value.privateDir && basename(value.privateDir).startsWith('udsvstcp-'));
  return stagingOk && privateOk;
}
