import { cp, lstat, mkdir, readFile, readdir, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { readTrialRows, writeTinySpec } from '../helpers/sweeps.js';
import { copyResultsDir, useTempDir } from '../helpers/temp.js';

const tmp = useTempDir({ each: true });
/** @type {string} a file outside the results directory that a planted symlink points at */
let elsewhere;
beforeEach(async () => {
  await mkdir(join(tmp.dir, 'elsewhere'));
  elsewhere = join(tmp.dir, 'elsewhere', 'precious.txt');
  await writeFile(elsewhere, 'precious');
});

describe('symlinks planted in a results directory are never followed', () => {
  it('--out with meta.json.tmp pointing elsewhere and a dangling trials.csv: exit 2, nothing written anywhere', async () => {
    const out = join(tmp.dir, 'out');
    await mkdir(out);
    await symlink(elsewhere, join(out, 'meta.json.tmp'));
    await symlink(join(tmp.dir, 'elsewhere', 'created.csv'), join(out, 'trials.csv'));
    const { code, stderr } = await runCli(['sweep', await writeTinySpec(tmp.dir), '--out', out]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^udsvstcp: error: --out .*out: its trials\.csv is a symbolic link; udsvstcp never writes through one/);
    expect(await readFile(elsewhere, 'utf8')).toBe('precious');
    expect(await readdir(join(tmp.dir, 'elsewhere'))).toEqual(['precious.txt']);
    expect((await readdir(out)).sort()).toEqual(['meta.json.tmp', 'trials.csv']);
  });

  it('a sweep beside planted *.tmp symlinks uses its own unique temp names and leaves them alone', async () => {
    const out = join(tmp.dir, 'out');
    await mkdir(out);
    for (const name of ['meta.json.tmp', 'summary.csv.tmp', 'runs-wide.csv.tmp', 'trials.csv.tmp']) await symlink(elsewhere, join(out, name));
    const { code, stderr } = await runCli(['sweep', await writeTinySpec(tmp.dir, { runs: 1 }), '--out', out, '--quiet']);
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
    const out = join(tmp.dir, 'out');
    expect((await runCli(['sweep', await writeTinySpec(tmp.dir, { runs: 1 }), '--out', out, '--quiet'])).code).toBe(0);
    for (const name of ['trials.csv', 'meta.json']) {
      const dir = await copyResultsDir(out, tmp.dir, `linked-${name}`);
      await cp(join(dir, name), join(tmp.dir, 'elsewhere', name));
      const target = join(tmp.dir, 'elsewhere', name);
      const before = await readFile(target, 'utf8');
      await rm(join(dir, name));
      await symlink(target, join(dir, name));
      const { code, stderr } = await runCli(['sweep', '--resume', dir]);
      expect(code, stderr).toBe(2);
      expect(stderr).toContain(`${join(dir, name)} is a symbolic link; udsvstcp never writes or reads through one`);
      expect(await readFile(target, 'utf8')).toBe(before);
      expect((await lstat(join(dir, name))).isSymbolicLink()).toBe(true);
    }
  });
});
