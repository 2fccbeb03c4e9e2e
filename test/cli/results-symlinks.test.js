import { cp, lstat, mkdir, readFile, readdir, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { callMain } from '../helpers/cli.js';
import { readTrialRows, writeTinySpec } from '../helpers/sweeps.js';
import { copyResultsDir, useTempDir } from '../helpers/temp.js';

const tmp = useTempDir();

/**
 * A directory of its own for a test, holding a file that a planted symlink points at.
 * @param {string} name
 */
async function place(name) {
  const dir = join(tmp.dir, name);
  await mkdir(join(dir, 'elsewhere'), { recursive: true });
  const precious = join(dir, 'elsewhere', 'precious.txt');
  await writeFile(precious, 'precious');
  return { dir, elsewhere: precious };
}

/** the one real sweep of this file: beside planted *.tmp symlinks, whose results the --resume refusals copy */
let swept = { dir: '', elsewhere: '', out: '', code: /** @type {number | null} */ (null), stderr: '' };
beforeAll(async () => {
  const { dir, elsewhere } = await place('beside-tmp-links');
  const out = join(dir, 'out');
  await mkdir(out);
  for (const name of ['meta.json.tmp', 'summary.csv.tmp', 'runs-wide.csv.tmp', 'trials.csv.tmp']) await symlink(elsewhere, join(out, name));
  const { code, stderr } = await callMain(['sweep', await writeTinySpec(dir, { runs: 1 }), '--test', '--no-probe', '--out', out, '--quiet']);
  swept = { dir, elsewhere, out, code, stderr };
}, 60_000);

describe('symlinks planted in a results directory are never followed', () => {
  it('--out with meta.json.tmp pointing elsewhere and a dangling trials.csv: exit 2, nothing written anywhere', async () => {
    const { dir, elsewhere } = await place('refused');
    const out = join(dir, 'out');
    await mkdir(out);
    await symlink(elsewhere, join(out, 'meta.json.tmp'));
    await symlink(join(dir, 'elsewhere', 'created.csv'), join(out, 'trials.csv'));
    const { code, stderr } = await callMain(['sweep', await writeTinySpec(dir), '--out', out]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^udsvstcp: error: --out .*out: its trials\.csv is a symbolic link; udsvstcp never writes through one/);
    expect(await readFile(elsewhere, 'utf8')).toBe('precious');
    expect(await readdir(join(dir, 'elsewhere'))).toEqual(['precious.txt']);
    expect((await readdir(out)).sort()).toEqual(['meta.json.tmp', 'trials.csv']);
  });

  it('a sweep beside planted *.tmp symlinks uses its own unique temp names and leaves them alone', async () => {
    const { elsewhere, out, code, stderr } = swept;
    expect(code, stderr).toBe(0);
    expect(await readFile(elsewhere, 'utf8')).toBe('precious');
    expect(await readlink(join(out, 'meta.json.tmp'))).toBe(elsewhere);
    const names = (await readdir(out)).sort();
    expect(names.filter((n) => n.endsWith('.tmp'))).toEqual(['meta.json.tmp', 'runs-wide.csv.tmp', 'summary.csv.tmp', 'trials.csv.tmp']);
    for (const name of names.filter((n) => n.endsWith('.tmp'))) expect(await readlink(join(out, name))).toBe(elsewhere);
    expect(names).toEqual(expect.arrayContaining(['blocks.csv', 'meta.json', 'runs-wide.csv', 'summary.csv', 'trials.csv', 'report.html', 'results.xlsx']));
    expect(await readTrialRows(out)).toHaveLength(4);
  });

  it('--resume refuses a trials.csv or meta.json that is a symlink, and touches nothing', async () => {
    expect(swept.code, swept.stderr).toBe(0);
    const { dir: here } = await place('resume-refused');
    for (const name of ['trials.csv', 'meta.json']) {
      const dir = await copyResultsDir(swept.out, here, `linked-${name}`);
      for (const tmpLink of (await readdir(dir)).filter((n) => n.endsWith('.tmp'))) await rm(join(dir, tmpLink));
      const target = join(here, 'elsewhere', name);
      await cp(join(dir, name), target);
      const before = await readFile(target, 'utf8');
      await rm(join(dir, name));
      await symlink(target, join(dir, name));
      const { code, stderr } = await callMain(['sweep', '--resume', dir]);
      expect(code, stderr).toBe(2);
      expect(stderr).toContain(`${join(dir, name)} is a symbolic link; udsvstcp never writes or reads through one`);
      expect(await readFile(target, 'utf8')).toBe(before);
      expect((await lstat(join(dir, name))).isSymbolicLink()).toBe(true);
    }
  });
});
