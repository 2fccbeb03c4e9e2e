/**
 * udsvstcp reads only regular files, of a bounded size and nesting: a device,
 * a FIFO or a directory where a spec file or a results file belongs is
 * refused at once (a FIFO never blocks the open), with one line naming the
 * file, exit 2, and nothing written or left (no sweep.lock). Each of these
 * hung, read without bound or overflowed the stack before.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { callMain, expectOneLineUsageError, runCli } from '../helpers/cli.js';
import { callMainLeavingNothing } from '../helpers/in-process.js';
import { copyResultsDir, useTempDir } from '../helpers/temp.js';
import { writeTinySpec } from '../helpers/sweeps.js';

/**
 * A command that would block or read without end before, given this long to
 * answer: these run as a child process, so that a FIFO opened or /dev/zero
 * read by mistake fails the test rather than hanging the test process. The
 * other refusals run main() in this process.
 */
const PROMPTLY = { timeoutMs: 20_000 };

const tmp = useTempDir();
/** a complete tiny sweep of one trial, without report files (those checked here would be written after the refusal), copied for each case */
let sweepDir = '';
beforeAll(async () => {
  sweepDir = join(tmp.dir, 'sweep');
  const { code, stderr } = await callMainLeavingNothing(['sweep', await writeTinySpec(tmp.dir, { sizes: [64], runs: 1 }), '--test', '--no-probe', '--no-report', '--out', sweepDir, '--quiet']);
  expect(code, stderr).toBe(0);
}, 60_000);

/** @param {string} path */
const mkfifo = (path) => execFileSync('mkfifo', [path]);

/**
 * A copy of the tiny sweep in which `name` is replaced by what `plant` puts there.
 * @param {string} copy
 * @param {string} name
 * @param {(path: string) => unknown} plant
 */
async function sweepWith(copy, name, plant) {
  const dir = await copyResultsDir(sweepDir, tmp.dir, copy);
  await rm(join(dir, name), { recursive: true, force: true });
  await plant(join(dir, name));
  return dir;
}

describe('a spec file that is not a regular file, or too large, or too deep', () => {
  it('sweep /dev/zero: exit 2 at once, naming it, instead of reading without end', async () => {
    expectOneLineUsageError(await runCli(['sweep', '/dev/zero'], PROMPTLY), /^udsvstcp: error: \/dev\/zero is a character device, not a regular file/);
  });

  it('a FIFO as the spec file: exit 2 at once instead of waiting for a writer', async () => {
    const fifo = join(tmp.dir, 'spec-fifo.json');
    mkfifo(fifo);
    expectOneLineUsageError(await runCli(['sweep', fifo], PROMPTLY), `${fifo} is a FIFO (named pipe), not a regular file`);
  });

  it('a directory as the spec file: exit 2 naming it', async () => {
    const dir = join(tmp.dir, 'spec-dir.json');
    await mkdir(dir);
    expectOneLineUsageError(await callMain(['sweep', dir]), `${dir} is a directory, not a regular file`);
  });

  it('a spec file over 1 MiB: exit 2 naming the file and the cap', async () => {
    const big = join(tmp.dir, 'big.json');
    const text = '{"sizes": [64], "unknownKey": 1}'; // refused before, for its unknown key, after reading it all
    await writeFile(big, text.padEnd(2 * 1024 * 1024));
    expectOneLineUsageError(await callMain(['sweep', big]), `${big} is 2 MiB; udsvstcp reads at most 1 MiB of a sweep spec`);
  });

  it.each([
    ['lists', (/** @type {number} */ n) => `{"sizes": ${'['.repeat(n)}64${']'.repeat(n)}}`],
    ['objects', (/** @type {number} */ n) => `{"seed": ${'{"a": '.repeat(n)}1${'}'.repeat(n)}}`],
  ])('a spec nested 100 000 %s deep: exit 2 naming the file, not a stack overflow (exit 1)', async (what, text) => {
    const deep = join(tmp.dir, `deep-${what}.json`);
    await writeFile(deep, text(100_000));
    expectOneLineUsageError(await callMain(['sweep', deep]), `udsvstcp: error: ${deep}: nested more than 16 objects or lists deep`);
  });
});

describe('report and compare read only regular files', () => {
  it.each([
    ['a symlink to /dev/zero', (/** @type {string} */ path) => symlink('/dev/zero', path), 'is a symbolic link'],
    ['a FIFO', mkfifo, 'is a FIFO (named pipe), not a regular file'],
    ['a directory', (/** @type {string} */ path) => mkdir(path), 'is a directory, not a regular file'],
  ])('report with trials.csv %s: exit 2 at once naming it, no report written', async (what, plant, message) => {
    const dir = await sweepWith(`report-${what.replace(/\W+/g, '-')}`, 'trials.csv', plant);
    const argv = ['report', dir];
    expectOneLineUsageError(await (what === 'a directory' ? callMain(argv) : runCli(argv, PROMPTLY)), `${join(dir, 'trials.csv')} ${message}`);
    expect(existsSync(join(dir, 'report.html'))).toBe(false);
  });

  it('report with a trials.csv over 256 MiB: exit 2 naming the file and the cap, without reading it', async () => {
    const dir = await sweepWith('report-huge', 'trials.csv', (path) => writeFile(path, ''));
    await truncate(join(dir, 'trials.csv'), 300 * 1024 * 1024); // sparse: nothing is written to disk
    expectOneLineUsageError(await callMain(['report', dir]), `${join(dir, 'trials.csv')} is 300 MiB; udsvstcp reads at most 256 MiB of a trials file`);
  });

  it('compare with a FIFO meta.json: exit 2 at once naming it', async () => {
    const dir = await sweepWith('compare-fifo', 'meta.json', mkfifo);
    expectOneLineUsageError(await runCli(['compare', sweepDir, dir], PROMPTLY), `${join(dir, 'meta.json')} is a FIFO (named pipe), not a regular file`);
  });
});

describe('sweep --resume reads only regular files, and changes nothing when one is not', () => {
  it('a FIFO trials.csv: exit 2 at once (no open that ignores Ctrl-C), no sweep.lock left, meta.json untouched', async () => {
    const dir = await sweepWith('resume-fifo', 'trials.csv', mkfifo);
    const meta = await readFile(join(dir, 'meta.json'), 'utf8');
    expectOneLineUsageError(await runCli(['sweep', '--resume', dir], PROMPTLY), `${join(dir, 'trials.csv')} is a FIFO (named pipe), not a regular file`);
    expect(await readdir(dir)).not.toContain('sweep.lock');
    expect(await readFile(join(dir, 'meta.json'), 'utf8')).toBe(meta);
  });

  it('a FIFO blocks.csv: exit 2 before trials.csv is repaired (its missing final newline is not added)', async () => {
    const dir = await sweepWith('resume-blocks-fifo', 'blocks.csv', mkfifo);
    const trials = (await readFile(join(dir, 'trials.csv'), 'utf8')).replace(/\n$/, '');
    await writeFile(join(dir, 'trials.csv'), trials);
    expectOneLineUsageError(await runCli(['sweep', '--resume', dir], PROMPTLY), `${join(dir, 'blocks.csv')} is a FIFO (named pipe), not a regular file`);
    expect(await readFile(join(dir, 'trials.csv'), 'utf8')).toBe(trials);
    expect(await readdir(dir)).not.toContain('sweep.lock');
  });

  it('a FIFO sweep.lock: exit 2 at once naming it', async () => {
    const dir = await sweepWith('resume-lock-fifo', 'sweep.lock', mkfifo);
    expectOneLineUsageError(await runCli(['sweep', '--resume', dir], PROMPTLY), `${join(dir, 'sweep.lock')} is a FIFO (named pipe), not a regular file`);
  });

  it('a meta.json nested 100 000 deep: exit 2 naming it, not a stack overflow (exit 1)', async () => {
    const dir = await sweepWith('resume-deep-meta', 'meta.json', async (path) => {
      const meta = JSON.parse(await readFile(join(sweepDir, 'meta.json'), 'utf8'));
      await writeFile(path, JSON.stringify(meta).replace(/}$/, `, "deep": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`));
    });
    expectOneLineUsageError(await callMain(['sweep', '--resume', dir]), `--resume ${dir}: cannot read meta.json: nested more than 64 objects or lists deep`);
  });
});
