import os from 'node:os';
import { spawn } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { processStart } from '../../lib/results/lock.js';
import { callMain, makeTempDir } from '../helpers/cli.js';
import { callMainLeavingNothing } from '../helpers/in-process.js';
import { copyResultsDir } from '../helpers/temp.js';
import { keyOf, readMetaJson, readTrialRows, startSweep, writeTinySpec } from '../helpers/sweeps.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => tmp.remove());

/** @type {{ dir: string, remove: () => Promise<void> }} */
let shared;
/**
 * a tiny sweep of 2 trials killed outright (SIGKILL) after its first, made once: each test resumes a copy (no test
 * here reads the report files); it left its lock and meta.json "running"
 */
let killed = '';
/** the pid of the sweep that was killed */
let killedPid = 0;
beforeAll(async () => {
  shared = await makeTempDir();
  killed = join(shared.dir, 'out');
  const sweep = startSweep([await writeTinySpec(shared.dir, { runs: 1 }), '--test', '--no-probe', '--no-report', '--out', killed], {
    onStderr: (text, child) => { if (text.includes('[1/2]') && !child.killed) child.kill('SIGKILL'); },
  });
  const { signal, stderr } = await sweep.done;
  expect(signal, stderr).toBe('SIGKILL');
  killedPid = /** @type {number} */ (sweep.child.pid);
}, 60_000);
afterAll(() => shared.remove());

/** A copy of the killed sweep, for one test. */
const killedSweep = () => copyResultsDir(killed, tmp.dir, 'out');

/** @param {number} pid */
const lockOf = (pid, start = processStart(pid)) => JSON.stringify({ pid, host: os.hostname(), process_start: start, started_at: '2026-01-01T00:00:00.000Z', argv: ['sweep', '--resume', 'x'], token: 'feedc0de' });

describe('one sweep at a time per results directory', () => {
  it('a second --resume while one runs exits 2 naming the holder; no trial is measured twice', async () => {
    const out = await killedSweep();
    /** @type {Promise<Awaited<ReturnType<typeof callMain>>> | undefined} */
    let second;
    // the second in this process, once the first has the lock; the first is stopped (SIGSTOP) until the second has
    // answered, so that it cannot finish and let the lock go first
    const first = startSweep(['--resume', out, '--no-probe', '--no-report'], {
      onStderr: (text, child) => {
        if (second || !text.includes('results:')) return;
        child.kill('SIGSTOP');
        second = callMain(['sweep', '--resume', out]).finally(() => child.kill('SIGCONT'));
      },
    });
    const done = await first.done;
    expect(done.code, done.stderr).toBe(0);
    const other = await /** @type {Promise<any>} */ (second);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(new RegExp(`^udsvstcp: error: --resume ${out} is in use by udsvstcp pid ${first.child.pid} \\(since .*: udsvstcp sweep --resume ${out} --no-probe --no-report\\); wait for it to finish or stop it`));
    const rows = await readTrialRows(out);
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map(keyOf)).size).toBe(4);
    expect(await readdir(out)).not.toContain('sweep.lock');
  });

  it('a lock held by a live process is respected, and nothing in the directory changes', async () => {
    const out = await killedSweep();
    await writeFile(join(out, 'sweep.lock'), lockOf(process.pid));
    const before = await readFile(join(out, 'trials.csv'), 'utf8');
    const { code, stderr } = await callMain(['sweep', '--resume', out]);
    expect(code).toBe(2);
    expect(stderr).toContain(`is in use by udsvstcp pid ${process.pid}`);
    expect(await readFile(join(out, 'trials.csv'), 'utf8')).toBe(before);
    expect(await readFile(join(out, 'sweep.lock'), 'utf8')).toBe(lockOf(process.pid));
  });

  it('a sweep killed outright leaves meta.json running and its lock; --resume takes over and goes on', async () => {
    // 2 trials: killed once the first is recorded
    const out = await killedSweep();
    expect(await readdir(out)).toContain('sweep.lock');
    expect((await readMetaJson(out)).status).toBe('running');
    const { code, stderr } = await callMainLeavingNothing(['sweep', '--resume', out, '--no-probe', '--no-report']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`note: took over sweep.lock left by udsvstcp pid ${killedPid}`);
    expect(stderr).toContain(`note: the last session (pid ${killedPid}) ended without closing the directory`);
    const rows = await readTrialRows(out);
    expect(new Set(rows.map(keyOf)).size).toBe(4);
    expect((await readMetaJson(out)).sessions.map((/** @type {any} */ s) => s.status)).toEqual(['lost', 'complete']);
  });

  it("a refused --resume leaves a killed sweep's lock as it was, and takes nothing over", async () => {
    const out = await killedSweep();
    const lock = await readFile(join(out, 'sweep.lock'), 'utf8');
    const { code, stderr } = await callMain(['sweep', '--resume', out, '--sizes', '128']); // the spec's sizes are fixed
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(/^udsvstcp: error: .*--sizes/);
    expect(stderr).not.toContain('took over');
    expect(await readFile(join(out, 'sweep.lock'), 'utf8')).toBe(lock);
  });

  it('a stale lock of a dead pid is taken over, and said so', async () => {
    const out = await killedSweep();
    const gone = spawn(process.execPath, ['-e', '']);
    const pid = /** @type {number} */ (gone.pid);
    await new Promise((resolve) => gone.on('exit', resolve));
    await writeFile(join(out, 'sweep.lock'), lockOf(pid, '1'));
    const { code, stderr } = await callMainLeavingNothing(['sweep', '--resume', out, '--no-probe', '--no-report']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`note: took over sweep.lock left by udsvstcp pid ${pid}`);
    expect(await readTrialRows(out)).toHaveLength(4);
    expect(await readdir(out)).not.toContain('sweep.lock');
  });
});
