/**
 * Files in a results directory, handled so that nothing planted there is followed or clobbered: new files are created
 * exclusively (O_EXCL) and never through a symbolic link (O_NOFOLLOW); whole files are rewritten through a unique
 * temporary name and a rename; every write is checked for short writes. Every file read goes through readRegularFile:
 * only a regular file, opened so a FIFO never blocks, never more than a stated size. `layer.writeSync` is the one write
 * call, so a test can inject a short write or a full disk.
 */
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { RunError, UsageError } from './errors.js';
import { checkPrivate } from './ownership.js';
import { formatSize } from './units.js';

const { O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_WRONLY } = fs.constants;
/** Largest piece read at a time once a file turns out longer than its stat said. */
const READ_CHUNK = 1024 * 1024;

/** The write call every write here goes through (replaceable in tests). */
export const layer = { writeSync: fs.writeSync };

/** @param {unknown} error */
export const errorCode = (error) => /** @type {NodeJS.ErrnoException} */ (error)?.code;

/**
 * Write all of `data` at the file's position, or at `position`. A short write goes on with the
 * rest; an error, or a write that makes no progress, throws naming the file.
 * @param {number} fd
 * @param {string | Buffer} data
 * @param {string} path named in errors
 * @param {number} [position]
 */
export function writeAll(fd, data, path, position) {
  const buffer = typeof data === 'string' ? Buffer.from(data) : data;
  let done = 0;
  while (done < buffer.length) { // bounded: every pass writes at least one byte or throws
    let written;
    try {
      written = layer.writeSync(fd, buffer, done, buffer.length - done, position === undefined ? null : position + done);
    } catch (error) {
      throw new RunError(`cannot write ${path}: ${/** @type {Error} */ (error).message}`, errorCode(error) ?? 'ERR_WRITE');
    }
    if (!(written > 0)) throw new RunError(`cannot write ${path}: wrote ${done} of ${buffer.length} bytes (is the disk full?)`, 'ENOSPC');
    done += written;
  }
}

/**
 * Create a new file; fails with EEXIST if anything (a symlink too) is there.
 * @param {string} path
 */
export function createExclusive(path) {
  return fs.openSync(path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW, 0o644);
}

/**
 * Open an existing regular file of ours for appending, never through a symlink; a FIFO or device is refused at once.
 * @param {string} path
 */
export function openForAppend(path) {
  return openRegular(path, O_WRONLY | O_APPEND | O_NOFOLLOW);
}

/**
 * Open a path that must be a regular file: a FIFO or device is refused from its lstat before it is opened and, since
 * the path may change meanwhile, from the fstat of what was opened (O_NONBLOCK: opening a FIFO never waits).
 * @param {string} path
 * @param {number} flags open flags
 * @returns {number} the descriptor
 */
function openRegular(path, flags) {
  try {
    const seen = (flags & O_NOFOLLOW) ? fs.lstatSync(path) : fs.statSync(path);
    if (!seen.isFile() && !seen.isSymbolicLink()) throw notRegular(path, seen);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw refusal(path, error);
  }
  let fd;
  try {
    fd = fs.openSync(path, flags | O_NONBLOCK);
  } catch (error) {
    throw refusal(path, error);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw notRegular(path, stat);
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
  return fd;
}

/**
 * @param {string} path
 * @param {fs.Stats} stat
 */
function notRegular(path, stat) {
  const kind = stat.isFIFO() ? 'a FIFO (named pipe)'
    : stat.isCharacterDevice() ? 'a character device'
      : stat.isBlockDevice() ? 'a block device'
        : stat.isDirectory() ? 'a directory'
          : stat.isSocket() ? 'a socket' : 'not a regular file';
  return new UsageError(`${path} is ${kind}, not a regular file; udsvstcp reads and writes only regular files`, 'ERR_NOT_FILE');
}

/**
 * @param {string} path
 * @param {unknown} error
 */
function refusal(path, error) {
  if (error instanceof UsageError) return error;
  if (errorCode(error) === 'ELOOP') return new UsageError(`${path} is a symbolic link; udsvstcp never writes or reads through one (remove it, or use another directory)`, 'ERR_SYMLINK');
  if (errorCode(error) === 'ENXIO') return new UsageError(`${path} is a FIFO or device with no one at its other end, not a regular file; udsvstcp reads and writes only regular files`, 'ERR_NOT_FILE');
  return error;
}

/**
 * Read a whole regular file: never a FIFO, device or directory (refused without blocking), never more than `maxBytes`
 * (refused by its size before reading, and by what was read if it grows meanwhile).
 * @param {string} path
 * @param {object} options
 * @param {number} options.maxBytes
 * @param {string} options.what what the file is, for the size message (e.g. "a sweep spec")
 * @param {boolean} [options.follow] read through a symbolic link (default: refuse one)
 * @param {boolean} [options.private] refuse a file that another user owns or others may write (see ownership.js)
 * @returns {Buffer}
 */
export function readRegularFile(path, { maxBytes, what, follow = false, private: mine = false }) {
  const fd = openRegular(path, O_RDONLY | (follow ? 0 : O_NOFOLLOW));
  try {
    const stat = fs.fstatSync(fd);
    if (mine) checkPrivate(path, stat);
    const tooLarge = (/** @type {string} */ size) => new UsageError(`${path} is ${size}; udsvstcp reads at most ${formatSize(maxBytes)} of ${what} (is it the right file?)`, 'ERR_TOO_LARGE');
    if (stat.size > maxBytes) throw tooLarge(formatSize(stat.size));
    /** @type {Buffer[]} */
    const chunks = [];
    let total = 0;
    let got = 1;
    while (got > 0) { // bounded: it ends at the end of the file, or throws once past maxBytes
      // first the size it had, one byte more: a file that grew since its stat is noticed
      const chunk = Buffer.allocUnsafe(chunks.length === 0 ? stat.size + 1 : Math.min(READ_CHUNK, maxBytes + 1 - total));
      got = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (got > 0) chunks.push(chunk.subarray(0, got));
      total += got;
      if (total > maxBytes) throw tooLarge(`over ${formatSize(maxBytes)} (it grew while read)`);
    }
    return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * readRegularFile, or null where nothing is at `path`; a failure other than a refusal is a UsageError `${cannot}: why`.
 * @param {string} path
 * @param {Parameters<typeof readRegularFile>[1]} options
 * @param {string} cannot e.g. `x.json: cannot read`
 */
export function readIfThere(path, options, cannot) {
  try {
    return readRegularFile(path, options);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (errorCode(error) === 'ENOENT') return null;
    throw new UsageError(`${cannot}: ${/** @type {Error} */ (error).message}`);
  }
}

/**
 * `mkdir -p`, bounded: each missing directory of the path made in turn, parents first. Not Node's `recursive`, which
 * spins at 100 % CPU for ever, deaf to signals, where mkdir of a missing child of an existing directory fails with
 * ENOENT (any path under /proc: nodejs/node's recursive mkdir takes that ENOENT for a missing parent and tries again).
 * @param {string} dir
 */
export function makeDirectories(dir) {
  const missing = [];
  // bounded by the path's depth
  for (let path = resolve(dir); !fs.existsSync(path) && dirname(path) !== path; path = dirname(path)) missing.push(path);
  for (const path of missing.reverse()) {
    try {
      fs.mkdirSync(path, { mode: 0o755 });
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error; // made meanwhile, or a dangling symlink: the next mkdir says
    }
  }
}

/** A name no one else uses, beside `path`. */
export function uniqueName(/** @type {string} */ path) {
  return `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
}

/**
 * A new file (created exclusively) holding `data`, flushed to disk.
 * @param {string} path
 * @param {string | Buffer} data
 * @param {string} [name] the file named in errors
 */
export function writeNewFile(path, data, name = path) {
  const fd = createExclusive(path);
  try {
    writeAll(fd, data, name);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Replace `path` whole: a unique temporary file (writeNewFile) renamed over it. A symlink at `path` is replaced, never
 * followed; a failed write leaves `path` as it was.
 * @param {string} path
 * @param {string | Buffer} text
 */
export function writeFileAtomic(path, text) {
  const temporary = uniqueName(path);
  try {
    writeNewFile(temporary, text, path);
    fs.renameSync(temporary, path);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * Last resort when the disk is full: overwrite `path` in place (no new file), padded with spaces to its old length;
 * only for JSON (trailing spaces are harmless), not atomic. Text longer than the file is refused before any write.
 * @param {string} path
 * @param {string} text
 */
export function overwriteInPlace(path, text) {
  const fd = openRegular(path, O_WRONLY | O_NOFOLLOW);
  try {
    const size = fs.fstatSync(fd).size;
    const body = Buffer.from(text);
    // growing the file needs space there may not be; a write cut short would leave old and new mixed
    if (body.length > size) throw new RunError(`cannot write ${path} in place: ${body.length} bytes where it holds ${size}`, 'ENOSPC');
    writeAll(fd, Buffer.concat([body, Buffer.alloc(size - body.length, 0x20)]), path, 0);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
