import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shellQuote } from '../../lib/core/shell.js';
import { makeTempDir, runCli } from '../helpers/cli.js';
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
 * Run a sweep of 4 trials and send `signal` once its stderr shows `when`
 * (and, with `twice`, again once it says it is stopping). Without `report`
 * (--no-report), no summary.md, charts, results.xlsx or report.html.
 * @param {string} out
 * @param {string} when
 * @param {NodeJS.Signals} signal
 * @param {{ twice?: boolean, report?: boolean }} [options]
 */
async function interrupt(out, when, signal, { twice = false, report = false } = {}) {
  let sent = 0;
  const sweep = startSweep([await writeTinySpec(tmp.dir, { runs: 1 }), '--test', '--no-probe', ...(report ? [] : ['--no-report']), '--out', out], {
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
 * trials.csv, meta.json not "running", and a resume that completes the sweep.
 * @param {string} out
 */
async function expectResumable(out) {
  expect(await readdir(out)).not.toContain('sweep.lock');
  expect(await readdir(serverTmp)).toEqual([]);
  expect((await readMetaJson(out)).status).not.toBe('running');
  const resumed = await runCli(['sweep', '--resume', out, '--no-probe', '--no-report', '--quiet'], { env: { TMPDIR: serverTmp } });
  expect(resumed.code, resumed.stderr).toBe(0);
  const rows = await readTrialRows(out);
  expect(rows).toHaveLength(4);
  expect(new Set(rows.map(keyOf)).size).toBe(4);
  expect((await readMetaJson(out)).status).toBe('complete');
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

  it('SIGTERM exits 143 and quotes the directory in the resume command', async () => {
    const out = join(tmp.dir, "it's mine");
    const { code, stderr } = await interrupt(out, '[1/2]', 'SIGTERM');
    expect(code, stderr).toBe(143);
    expect(stderr).toContain(`npx udsvstcp sweep --resume '${tmp.dir}/it'\\''s mine'\n`);
    await expectResumable(out);
  }, 60_000); // a sweep and its resume: slow on a loaded 2-core machine

  it('SIGHUP (the terminal closed) exits 129', async () => {
    const out = join(tmp.dir, 'hup');
    const { code, stderr } = await interrupt(out, '[1/2]', 'SIGHUP');
    expect(code, stderr).toBe(129);
    await expectResumable(out);
  }, 60_000); // a sweep and its resume: slow on a loaded 2-core machine
});

describe('shellQuote', () => {
  it('leaves plain paths alone and single-quotes the rest', () => {
    expect(shellQuote('results/2026-01-01T00:00Z_x.y')).toBe('results/2026-01-01T00:00Z_x.y');
    expect(shellQuote('my results')).toBe("'my results'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote('$(rm -rf x)')).toBe("'$(rm -rf x)'");
  });
});
