import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sysctlPath, withSysctl } from '../bench/sysctl-guard.js';
import { makeTempDir } from '../helpers/cli.js';

const CHILD = fileURLToPath(new URL('../helpers/sysctl-guard-child.js', import.meta.url));

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

/** A temporary file standing in for /proc/sys/net/core/wmem_default, holding the default. */
async function standIn(/** @type {string} */ name) {
  const path = join(tmp.dir, name);
  await writeFile(path, '212992\n');
  return path;
}

/**
 * Run the child until it exits; `onSet` is called once it has changed the value.
 * @param {string} path
 * @param {'signal' | 'exit'} mode
 * @param {(child: import('node:child_process').ChildProcess, value: string) => void} [onSet]
 */
function runChild(path, mode, onSet) {
  const child = spawn(process.execPath, [CHILD, path, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (t) => {
    stdout += t;
    const set = /^set (\S+)\n/.exec(stdout);
    if (set && onSet) {
      onSet(child, set[1]);
      onSet = undefined;
    }
  });
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
}

describe('the wmem bench puts the sysctl back on every way out', () => {
  it('names the /proc/sys file of a sysctl', () => {
    expect(sysctlPath('net.core.wmem_default')).toBe('/proc/sys/net/core/wmem_default');
  });

  it('when the work returns, and when it throws', async () => {
    const path = await standIn('returns');
    const seen = await withSysctl(path, 4194304, async () => (await readFile(path, 'utf8')).trim(), { log: () => {} });
    expect(seen).toBe('4194304');
    expect(await readFile(path, 'utf8')).toBe('212992\n');
    await expect(withSysctl(path, 4194304, async () => { throw new Error('boom'); }, { log: () => {} })).rejects.toThrow('boom');
    expect(await readFile(path, 'utf8')).toBe('212992\n');
  });

  it('changes nothing when the value cannot be read', async () => {
    await expect(withSysctl(join(tmp.dir, 'absent'), 1, async () => 'ran', { log: () => {} })).rejects.toThrow(/ENOENT/);
  });

  it.each([['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]])('on %s, and exits %i', async (name, code) => {
    const path = await standIn(name);
    /** @type {string | undefined} */
    let during;
    const exit = await runChild(path, 'signal', (child, value) => {
      during = value;
      child.kill(/** @type {NodeJS.Signals} */ (name));
    });
    expect(during).toBe('4194304');
    expect(exit).toEqual({ code, signal: null });
    expect(await readFile(path, 'utf8')).toBe('212992\n');
  });

  it('when something calls process.exit() while the value is set', async () => {
    const path = await standIn('exit');
    expect(await runChild(path, 'exit')).toEqual({ code: 3, signal: null });
    expect(await readFile(path, 'utf8')).toBe('212992\n');
  });
});
