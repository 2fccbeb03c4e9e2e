/**
 * Fresh temporary directories for tests, and copies of results directories.
 */
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

/**
 * A fresh temporary directory; remove it with the returned function.
 * @param {string} [prefix]
 */
export async function makeTempDir(prefix = 'udsvstcp-test-') {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * A fresh temporary directory for the tests of this file (or of each test,
 * with `each`), made before them and removed after them. Call it at the top
 * of a file or describe block, before hooks that use it.
 * @param {{ each?: boolean, prefix?: string }} [options]
 * @returns {{ readonly dir: string }}
 */
export function useTempDir({ each = false, prefix } = {}) {
  /** @type {Awaited<ReturnType<typeof makeTempDir>> | undefined} */
  let tmp;
  (each ? beforeEach : beforeAll)(async () => {
    tmp = await makeTempDir(prefix);
  });
  (each ? afterEach : afterAll)(() => tmp?.remove());
  return {
    get dir() {
      if (!tmp) throw new Error('useTempDir: the directory exists only while the tests run');
      return tmp.dir;
    },
  };
}

/**
 * For each test, a fresh temporary directory and, inside it, an empty
 * directory that is TMPDIR (os.tmpdir() of this process and of any child it
 * starts) while the test runs: empty afterwards, or something was started.
 * @returns {{ readonly dir: string, readonly tmpdir: string }}
 */
export function usePrivateTmpdir() {
  const tmp = useTempDir({ each: true });
  const saved = process.env.TMPDIR;
  let tmpdir = '';
  beforeEach(async () => {
    tmpdir = join(tmp.dir, 'tmp');
    await mkdir(tmpdir);
    process.env.TMPDIR = tmpdir;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  });
  return {
    get dir() { return tmp.dir; },
    get tmpdir() { return tmpdir; },
  };
}

/**
 * A copy of a results directory (every file, recursively) at `into/name`.
 * @param {string} source
 * @param {string} into
 * @param {string} name
 * @returns {Promise<string>} the copy's path
 */
export async function copyResultsDir(source, into, name) {
  const dir = join(into, name);
  await cp(source, dir, { recursive: true });
  return dir;
}
