/**
 * A results directory, or a file in it, that another user could change is
 * refused as ssh's StrictModes refuses such a ~/.ssh: `sweep --out`,
 * `sweep --resume`, `report` and `compare` exit 2 with one line naming the
 * path and the reason, and write nothing; --allow-shared-dir accepts it. A
 * directory a sweep makes is private even under umask 0. The case of another
 * owner needs root (chown to nobody) and says so in its name; the rule itself
 * is checked for any user in test/unit/ownership.test.js.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, callMain, expectOneLineUsageError } from '../helpers/cli.js';
import { callMainLeavingNothing } from '../helpers/in-process.js';
import { copyResultsDir, useTempDir } from '../helpers/temp.js';
import { readMetaJson, writeTinySpec } from '../helpers/sweeps.js';

const isRoot = process.getuid?.() === 0;
const SHARED = 'another user could change what udsvstcp reads or writes there (give --allow-shared-dir if you trust them)';

const tmp = useTempDir();
/** a complete tiny sweep of one trial, made under umask 0 with its report (every file it writes is checked), copied for each case */
let sweepDir = '';
let spec = '';
beforeAll(async () => {
  spec = await writeTinySpec(tmp.dir, { sizes: [64], runs: 1 });
  sweepDir = join(tmp.dir, 'made', 'under', 'umask0');
  // umask 0: what the sweep creates has only the modes it asks for
  await promisify(execFile)('sh', ['-c', 'umask 0 && exec "$@"', 'sh', process.execPath, BIN, 'sweep', spec, '--test', '--no-probe', '--out', sweepDir, '--quiet'], { env: { ...process.env, NO_COLOR: '1' } });
}, 60_000);

/**
 * A copy of the tiny sweep without its report, so that a report written is seen.
 * @param {string} name
 */
async function copySweep(name) {
  const dir = await copyResultsDir(sweepDir, tmp.dir, name);
  await rm(join(dir, 'report.html'));
  return dir;
}

describe('what a sweep makes is private', () => {
  it('under umask 0, the results directory and its parents are 0755 and no file is group- or world-writable', async () => {
    for (const dir of [join(tmp.dir, 'made'), join(tmp.dir, 'made', 'under'), sweepDir]) expect(((await stat(dir)).mode & 0o7777).toString(8), dir).toBe('755');
    for (const name of await readdir(sweepDir)) expect((await stat(join(sweepDir, name))).mode & 0o022, name).toBe(0);
  });

  it('and it is accepted as it is by --resume and report', async () => {
    const dir = await copySweep('private');
    const resumed = await callMainLeavingNothing(['sweep', '--resume', dir, '--no-probe', '--no-report']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`no report files (--no-report); to write them: npx udsvstcp report ${dir}\n`);
    expect(existsSync(join(dir, 'report.html'))).toBe(false);
    const report = await callMain(['report', dir, '--quiet']);
    expect(report.code, report.stderr).toBe(0);
    expect(existsSync(join(dir, 'report.html'))).toBe(true);
  });
});

describe('sweep --out refuses a directory others may write', () => {
  it.each([
    ['0777', /others may write it \(mode 0777\)/],
    ['1777', /others may write it \(mode 1777, sticky: anyone may have created what is in it\)/],
    ['0775', /its group may write it \(mode 0775\)/],
  ])('mode %s: exit 2 naming --out and the reason, nothing written', async (mode, reason) => {
    const out = join(tmp.dir, `out-${mode}`);
    await mkdir(out);
    await chmod(out, parseInt(mode, 8));
    const result = await callMain(['sweep', spec, '--out', out]);
    expectOneLineUsageError(result, `udsvstcp: error: --out ${out}: `);
    expect(result.stderr).toMatch(reason);
    expect(result.stderr).toContain(SHARED);
    expect(await readdir(out)).toEqual([]);
  });

  it('a new --out inside a world-writable directory is made private and used', async () => {
    const parent = join(tmp.dir, 'world');
    await mkdir(parent);
    await chmod(parent, 0o1777);
    const out = join(parent, 'mine');
    const { code, stderr } = await callMainLeavingNothing(['sweep', spec, '--test', '--no-probe', '--no-report', '--out', out, '--quiet']);
    expect(code, stderr).toBe(0);
    expect((await stat(out)).mode & 0o022).toBe(0);
    expect((await readMetaJson(out)).status).toBe('complete');
  });
});

describe('sweep --resume refuses a directory or file others may write, and changes nothing', () => {
  it('a results directory of mode 0777: exit 2 naming it, no lock taken, meta.json untouched', async () => {
    const dir = await copySweep('resume-777');
    await chmod(dir, 0o777);
    const meta = await readFile(join(dir, 'meta.json'), 'utf8');
    const result = await callMain(['sweep', '--resume', dir]);
    expectOneLineUsageError(result, `udsvstcp: error: --resume ${dir}: others may write it (mode 0777); ${SHARED}`);
    expect(await readdir(dir)).not.toContain('sweep.lock');
    expect(await readFile(join(dir, 'meta.json'), 'utf8')).toBe(meta);
  });

  it.each(['meta.json', 'trials.csv', 'blocks.csv'])('a group-writable %s: exit 2 naming it', async (name) => {
    const dir = await copySweep(`resume-g+w-${name}`);
    await chmod(join(dir, name), 0o664);
    const trials = await readFile(join(dir, 'trials.csv'), 'utf8');
    expectOneLineUsageError(await callMain(['sweep', '--resume', dir]), `udsvstcp: error: ${join(dir, name)}: its group may write it (mode 0664); ${SHARED}`);
    expect(await readdir(dir)).not.toContain('sweep.lock');
    expect(await readFile(join(dir, 'trials.csv'), 'utf8')).toBe(trials);
  });

  it('--allow-shared-dir resumes it all the same', async () => {
    const dir = await copySweep('resume-allowed');
    await chmod(dir, 0o777);
    const { code, stderr } = await callMainLeavingNothing(['sweep', '--resume', dir, '--allow-shared-dir', '--no-probe', '--no-report', '--quiet']);
    expect(code, stderr).toBe(0);
    expect((await readMetaJson(dir)).sessions.map((/** @type {any} */ s) => [s.kind, s.status])).toEqual([['start', 'complete'], ['resume', 'complete']]);
  });
});

describe('report and compare refuse what others may write', () => {
  it('report of a directory of mode 0777: exit 2, no report written; with --allow-shared-dir: written', async () => {
    const dir = await copySweep('report-777');
    await chmod(dir, 0o777);
    expectOneLineUsageError(await callMain(['report', dir]), `udsvstcp: error: ${dir}: others may write it (mode 0777); ${SHARED}`);
    expect(existsSync(join(dir, 'report.html'))).toBe(false);
    const { code, stderr } = await callMain(['report', dir, '--allow-shared-dir', '--quiet']);
    expect(code, stderr).toBe(0);
    expect(existsSync(join(dir, 'report.html'))).toBe(true);
  });

  it('report of a world-writable trials.csv: exit 2 naming the file, no report written', async () => {
    const dir = await copySweep('report-o+w');
    await chmod(join(dir, 'trials.csv'), 0o646);
    expectOneLineUsageError(await callMain(['report', dir]), `udsvstcp: error: ${join(dir, 'trials.csv')}: others may write it (mode 0646); ${SHARED}`);
    expect(existsSync(join(dir, 'report.html'))).toBe(false);
  });

  it('report --out into a world-writable directory: exit 2 naming --out, nothing written', async () => {
    const dir = await copySweep('report-out');
    const out = join(tmp.dir, 'report-out-777');
    await mkdir(out);
    await chmod(out, 0o777);
    expectOneLineUsageError(await callMain(['report', dir, '--out', out]), `udsvstcp: error: --out ${out}: others may write it (mode 0777); ${SHARED}`);
    expect(await readdir(out)).toEqual([]);
  });

  it('compare with a group-writable meta.json in the second directory: exit 2 naming it', async () => {
    const dir = await copySweep('compare-g+w');
    await chmod(join(dir, 'meta.json'), 0o664);
    expectOneLineUsageError(await callMain(['compare', sweepDir, dir]), `udsvstcp: error: ${join(dir, 'meta.json')}: its group may write it (mode 0664); ${SHARED}`);
  });

  it.skipIf(!isRoot)('(needs root, for chown) report, compare and --resume of a directory owned by nobody (uid 65534): exit 2 naming the owner', async () => {
    const dir = await copySweep('owned-by-nobody');
    await chown(dir, 65534, 65534);
    const reason = `${dir}: owned by uid 65534, not by you (uid 0) or root; ${SHARED}`;
    expectOneLineUsageError(await callMain(['report', dir]), `udsvstcp: error: ${reason}`);
    expectOneLineUsageError(await callMain(['compare', sweepDir, dir]), `udsvstcp: error: ${reason}`);
    expectOneLineUsageError(await callMain(['sweep', '--resume', dir]), `udsvstcp: error: --resume ${reason}`);
    expect(await readdir(dir)).not.toContain('sweep.lock');
    expect(existsSync(join(dir, 'report.html'))).toBe(false);
  });
});
