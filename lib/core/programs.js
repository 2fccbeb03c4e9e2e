/** Programs of the system (taskset, chrt, systemd-detect-virt, ip): found on PATH, run with a short time limit so none can stop anything. */
import { execFile, spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';

/**
 * A regular file this process may execute (not a directory, not missing).
 * @param {string} path
 */
export function isExecutableFile(path) {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where a program is looked for: PATH's absolute directories, then `extra` (where Debian puts it, often not on PATH:
 * /usr/sbin and the like).
 * @param {string[]} extra
 */
export function programDirs(extra) {
  return [...(process.env.PATH ?? '').split(delimiter).filter((dir) => isAbsolute(dir)), ...extra];
}

/**
 * `name` in the first of `dirs` that has it as an executable file, or undefined.
 * @param {string} name
 * @param {string[]} dirs
 */
export function findIn(name, dirs) {
  return dirs.map((dir) => join(dir, name)).find(isExecutableFile);
}

/**
 * `name` in PATH's absolute directories: a relative entry (`.`) would run whatever the working directory holds.
 * @param {string} name
 */
export function findProgram(name) {
  return findIn(name, programDirs([]));
}

/**
 * What a program printed on stdout, trimmed, whatever its exit code (systemd-detect-virt prints "none" and exits 1);
 * null when it is not on PATH, cannot start, or runs past a second (then it is killed).
 * @param {string} name
 * @param {string[]} args
 * @returns {Promise<string | null>}
 */
export function readProgramOutput(name, args) {
  const path = findProgram(name);
  if (!path) return Promise.resolve(null);
  return new Promise((resolve) => {
    execFile(path, args, { timeout: 1000, killSignal: 'SIGKILL', maxBuffer: 1 << 20, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } }, (error, stdout) => {
      const text = String(stdout ?? '').trim();
      if (error && (/** @type {any} */ (error).killed || typeof (/** @type {any} */ (error).code) === 'string')) resolve(null); // timed out, or could not start
      else resolve(text);
    });
  });
}

/**
 * Which version a server or client program is, for people and meta.json: the first match of `pattern` in what
 * `path arg` printed (stdout, then stderr: nginx -v writes there), printable characters only, or `unknown: …` with why.
 * Runs the binary (5 s at most), so only for one found where we look for it.
 * @param {string} path
 * @param {string} arg
 * @param {RegExp} pattern its first group is the version
 */
export function programVersion(path, arg, pattern) {
  const result = spawnSync(path, [arg], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 5000, maxBuffer: 64 * 1024 });
  const version = pattern.exec(`${result.stdout ?? ''}\n${result.stderr ?? ''}`)?.[1]?.replace(/[^\x21-\x7e]/g, '?');
  if (version) return version;
  const why = result.error ? result.error.message : result.signal ? `killed by ${result.signal}` : `exit code ${result.status}`;
  return `unknown: \`${path} ${arg}\` gave no version (${why})`;
}

/**
 * Where a server found without its flag came from, for people and meta.json: `PATH`, or the directory searched after
 * PATH that held it (/usr/sbin, /usr/lib/postgresql/15/bin).
 * @param {string} path the program, or (isDir) its directory
 */
export function originOf(path, isDir = false) {
  const dir = isDir ? path : dirname(path);
  return programDirs([]).includes(dir) ? 'PATH' : dir;
}
