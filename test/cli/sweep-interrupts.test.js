import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shellQuote } from '../../lib/core/shell.js';
import { makeTempDir } from '../helpers/cli.js';
import { callMainLeavingNothing } from '../helpers/in-process.js';
import { keyOf, readMetaJson, readTrialRows, startSweep, writeTinySpec } from '../helpers/sweeps.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
/** @type {string} the sweep's TMPDIR, where its echo servers make their private directories */
let serverTmp;
beforeEach(async () => {
  tmp = await makeTempDir();
  serverTmp = join(tmp.dir, 'server-tmp');
  await mkdir(serverTmp);
});
afterEach(() => tmp.remove());

/**
 * Run a sweep of 2 trials (3 with `sizes` of 3), or with `resume` resume
 * `out`, and send `signal` once its stderr shows `when` (and, with `twice`,
 * again once it says it is stopping). Without `report` (--no-report), no
 * summary.md, charts, results.xlsx or report.html.
 * @param {string} out
 * @param {string} when
 * @param {NodeJS.Signals} signal
 * @param {{ twice?: boolean, report?: boolean, sizes?: number[], resume?: boolean }} [options]
 */
async function interrupt(out, when, signal, { twice = false, report = false, sizes = [1, 64], resume = false } = {}) {
  let sent = 0;
  const what = resume ? ['--resume', out] : [await writeTinySpec(tmp.dir, { sizes, runs: 1 }), '--test', '--out', out];
  const sweep = startSweep([...what, '--no-probe', ...(report ? [] : ['--no-report'])], {
    env: { TMPDIR: serverTmp },
    onStderr: (text, child) => {
      if (sent === 0 && text.includes(when)) {
        sent++;
        child.kill(signal);
      } else if (sent === 1 && twice && text.includes(`${signal}: stopping`)) {
        sent++;
        child.kill(signal);
      }
    },
  });
  return sweep.done;
}

/**
 * What every interruption must leave: no lock, no server leftovers, a valid
 * trials.csv, meta.json not "running", and a resume that completes the sweep
 * (main() in this process, with the sweep's TMPDIR: it too must leave nothing running).
 * @param {string} out
 * @param {number} [rows] the rows of the complete sweep
 */
async function expectResumable(out, rows = 4) {
  await expectStopped(out);
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = serverTmp;
  try {
    const resumed = await callMainLeavingNothing(['sweep', '--resume', out, '--no-probe', '--no-report', '--quiet']);
    expect(resumed.code, resumed.stderr).toBe(0);
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
  const recorded = await readTrialRows(out);
  expect(recorded).toHaveLength(rows);
  expect(new Set(recorded.map(keyOf)).size).toBe(rows);
  expect((await readMetaJson(out)).status).toBe('complete');
  expect(await readdir(serverTmp)).toEqual([]);
}

/**
 * No lock, no server leftovers, meta.json not "running".
 * @param {string} out
 */
async function expectStopped(out) {
  expect(await readdir(out)).not.toContain('sweep.lock');
  expect(await readdir(serverTmp)).toEqual([]);
  expect((await readMetaJson(out)).status).not.toBe('running');
}

describe('a sweep stopped by a signal at any moment stays resumable', () => {
  it('Ctrl-C twice mid-sweep: exit 130, the server is killed at once, the resume command is printed', async () => {
    const out = join(tmp.dir, 'twice');
    const { code, stderr } = await interrupt(out, '[1/2]', 'SIGINT', { twice: true });
    expect(code, stderr).toBe(130);
    expect(stderr).toContain('SIGINT: stopping; what was measured is kept (Ctrl-C again kills the server at once)');
    expect(stderr).toContain('SIGINT again: stopping now');
    expect(stderr).toContain(`interrupted (SIGINT): what was measured is kept. Resume with:\n  npx udsvstcp sweep --resume ${out}\n`);
    expect((await readMetaJson(out)).status).toBe('interrupted');
    await expectResumable(out);
  }, 60_000); // a sweep and its resume: slow on a loaded 2-core machine

  it('Ctrl-C twice after the last trial (while the server stops and the summary is written): the files are complete', async () => {
    const out = join(tmp.dir, 'at-end');
    const { code, stderr } = await interrupt(out, '[2/2]', 'SIGINT', { twice: true, report: true }); // the report files: the end's longest step
    expect(code, stderr).toBe(130);
    expect(stderr).toContain('SIGINT again: stopping now');
    expect(stderr).toContain('4 trial rows recorded (4 planned)');
    expect(stderr).toContain(`Rewrite the summary with:\n  npx udsvstcp sweep --resume ${out}\n`);
    const names = (await readdir(out)).sort();
    expect(names).toEqual(expect.arrayContaining(['blocks.csv', 'meta.json', 'runs-wide.csv', 'summary.csv', 'trials.csv']));
    expect(names.filter((n) => n.endsWith('.tmp') || n === 'sweep.lock')).toEqual([]); // nothing half-written, no lock left
    expect((await readMetaJson(out)).status).toBe('complete');
    await expectResumable(out);
  }, 60_000); // a sweep and its resume: slow on a loaded 2-core machine

  // one directory for both: a sweep stopped by SIGTERM, its resume stopped by SIGHUP, then resumed to the end
  it('SIGTERM exits 143 and quotes the directory in the resume command; SIGHUP (the terminal closed) exits 129, on a resume too', async () => {
    const out = join(tmp.dir, "it's mine");
    const term = await interrupt(out, '[1/3]', 'SIGTERM', { sizes: [1, 64, 1024] });
    expect(term.code, term.stderr).toBe(143);
    expect(term.stderr).toContain(`npx udsvstcp sweep --resume '${tmp.dir}/it'\\''s mine'\n`);
    await expectStopped(out);
    const measured = (await readTrialRows(out)).length;
    expect([2, 4]).toContain(measured); // the trial in progress when the signal came may have ended first
    const hup = await interrupt(out, 'results:', 'SIGHUP', { resume: true });
    expect(hup.code, hup.stderr).toBe(129);
    await expectResumable(out, 6);
  }, 60_000); // two sweeps and a resume: slow on a loaded 2-core machine
});

describe('shellQuote', () => {
  it('leaves plain paths alone and single-quotes the rest', () => {
    expect(shellQuote('results/2026-01-01T00:00Z_x.y')).toBe('results/2026-01-01T00:00Z_x.y');
    expect(shellQuote('my results')).toBe("'my results'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote('$(rm -rf x)')).toBe("'$(rm -rf x)'");
  });
});
