/**
 * Files in a results directory, handled so that nothing planted there is
 * followed or clobbered: new files are created exclusively (O_EXCL) and
 * never through a symbolic link (O_NOFOLLOW); whole files are rewritten
 * through a unique temporary name and a rename; every write is checked for
 * short writes. `layer.writeSync` is the one write call, so a test can
 * inject a short write or a full disk.
 */
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { RunError, UsageError } from './errors.js';

const { O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_RDONLY, O_WRONLY } = fs.constants;

/** The write call every write here goes through (replaceable in tests). */
export const layer = { writeSync: fs.writeSync };

/** @param {unknown} error */
export const errorCode = (error) => /** @type {NodeJS.ErrnoException} */ (error)?.code;

/**
 * Write all of `data` at the file's position. A short write goes on with the
 * rest; an error, or a write that makes no progress, throws naming the file.
 * @param {number} fd
 * @param {string | Buffer} data
 * @param {string} path named in errors
 */
export function writeAll(fd, data, path) {
  const buffer = typeof data === 'string' ? Buffer.from(data) : data;
  let done = 0;
  while (done < buffer.length) { // bounded: every pass writes at least one byte or throws
    let written;
    try {
      written = layer.writeSync(fd, buffer, done, buffer.length - done);
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
 * Open an existing file of ours for appending, never through a symlink.
 * @param {string} path
 */
export function openForAppend(path) {
  try {
    return fs.openSync(path, O_WRONLY | O_APPEND | O_NOFOLLOW);
  } catch (error) {
    throw refusal(path, error);
  }
}

/**
 * @param {string} path
 * @param {unknown} error
 */
function refusal(path, error) {
  if (errorCode(error) === 'ELOOP') return new UsageError(`${path} is a symbolic link; udsvstcp never writes or reads through one (remove it, or use another directory)`, 'ERR_SYMLINK');
  return error;
}

/**
 * Read a whole file, never through a symlink.
 * @param {string} path
 * @returns {Buffer}
 */
export function readNoFollow(path) {
  let fd;
  try {
    fd = fs.openSync(path, O_RDONLY | O_NOFOLLOW);
  } catch (error) {
    throw refusal(path, error);
  }
  try {
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** A name no one else uses, beside `path`. */
export function uniqueName(/** @type {string} */ path) {
  return `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
}

/**
 * Replace `path` whole: write a unique temporary file (created exclusively),
 * flush it, rename it over `path`. A symlink at `path` is replaced, never
 * followed; a failed write leaves `path` as it was.
 * @param {string} path
 * @param {string | Buffer} text
 */
export function writeFileAtomic(path, text) {
  const temporary = uniqueName(path);
  const fd = createExclusive(temporary);
  try {
    try {
      writeAll(fd, text, path);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, path);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * Last resort when the disk is full: overwrite `path` in place (no new file),
 * padding with spaces to its old length. Only for JSON, where trailing spaces
 * are harmless; not atomic. Text longer than the file is refused before anything is written.
 * @param {string} path
 * @param {string} text
 */
export function overwriteInPlace(path, text) {
  const fd = fs.openSync(path, O_WRONLY | O_NOFOLLOW);
  try {
    const size = fs.fstatSync(fd).size;
    const body = Buffer.from(text);
    // growing the file needs space there may not be; a write cut short would leave old and new mixed
    if (body.length > size) throw new RunError(`cannot write ${path} in place: ${body.length} bytes where it holds ${size}`, 'ENOSPC');
    const padded = body.length < size ? Buffer.concat([body, Buffer.alloc(size - body.length, 0x20)]) : body;
    let done = 0;
    while (done < padded.length) {
      const written = layer.writeSync(fd, padded, done, padded.length - done, done);
      if (!(written > 0)) throw new RunError(`cannot write ${path}: no space left`, 'ENOSPC');
      done += written;
    }
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
