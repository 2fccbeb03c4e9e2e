/**
 * A proxy sweep killed together with nginx's guard and the app server (the
 * guard cannot clean up then) leaves nginx running and private directories in
 * TMPDIR; `sweep --resume` finds them in fixture.json, ends nginx (master and
 * worker), removes the directories, says so in one line, and completes the
 * sweep. Needs nginx (CI installs it).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, callMain } from '../helpers/cli.js';
import { descendants, isRunning, isStopped, trackProcesses } from '../helpers/processes.js';
import { waitFor } from '../helpers/wait.js';
import { readFixtureRecord, readMetaJson } from '../helpers/sweeps.js';

const ctx = trackProcesses();

describe('sweep --resume ends what a killed sweep left running', () => {
  it('kills the nginx recorded in fixture.json, removes its and the server\'s private directories, and completes', async () => {
    const tmpdir = join(ctx.tmp.dir, 'tmp');
    await mkdir(tmpdir);
    const out = join(ctx.tmp.dir, 'out');
    const env = { ...process.env, NO_COLOR: '1', TMPDIR: tmpdir };
    const child = spawn(process.execPath, [BIN, 'sweep', '--workload', 'proxy', '--test', '--runs', '1', '--depths', '1', '--no-probe', '--no-report', '--out', out], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text) => { stderr += text; });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const pid = /** @type {number} */ (child.pid);
    const ready = await waitFor(() => readFixtureRecord(out)?.processes.some((/** @type {any} */ p) => p.role === 'nginx worker'), { timeoutMs: 60_000, everyMs: 20 });
    expect(ready, stderr).toBe(true);

    // everything at once, so that nothing can clean up after the others: stop the sweep, kill its helpers, kill it
    process.kill(pid, 'SIGSTOP');
    expect(await waitFor(() => isStopped(pid), { timeoutMs: 10_000, everyMs: 20 })).toBe(true); // else it could still see its guard die, and end nginx itself
    ctx.seen = descendants(pid);
    const helpers = ctx.seen.filter((p) => /guard-main\.js|server-main\.js|trial\/worker\.js/.test(p.cmdline));
    expect(helpers.length).toBeGreaterThanOrEqual(2);
    for (const p of helpers) process.kill(p.pid, 'SIGKILL');
    child.kill('SIGKILL');
    await exited;
    const nginx = ctx.seen.filter((p) => p.cmdline.startsWith('nginx: '));
    expect(nginx.map((p) => p.cmdline.split(' process')[0]).sort()).toEqual(['nginx: master', 'nginx: worker']);
    expect(await waitFor(() => helpers.every((p) => !isRunning(p)), { timeoutMs: 10_000, everyMs: 20 })).toBe(true);
    expect(nginx.every(isRunning)).toBe(true); // left running: nothing was there to end it
    const names = await readdir(tmpdir);
    expect(names).toHaveLength(2);
    const left = [names.find((n) => /^udsvstcp-nginx-[A-Za-z0-9]{6}$/.test(n)), names.find((n) => /^udsvstcp-[A-Za-z0-9]{6}$/.test(n))]; // nginx's, then the server's
    expect(left.every(Boolean), names.join(', ')).toBe(true);

    const resumed = await callMain(['sweep', '--resume', out, '--no-probe', '--no-report'], { env: { TMPDIR: tmpdir } });
    expect(resumed.code, resumed.stderr).toBe(0);
    const master = nginx.find((p) => p.cmdline.startsWith('nginx: master'));
    const notes = resumed.stderr.split('\n').filter((line) => line.includes('fixture.json'));
    expect(notes).toEqual([`note: ended what an earlier session of this sweep left behind (fixture.json): killed nginx pid ${master?.pid} (and its workers); removed ${left.map((name) => join(tmpdir, String(name))).join(', ')}`]);
    expect(nginx.filter(isRunning)).toEqual([]);
    for (const name of left) expect(existsSync(join(tmpdir, String(name)))).toBe(false);
    expect(await readdir(tmpdir)).toEqual([]); // and the resumed session's own are gone too
    expect((await readMetaJson(out)).status).toBe('complete');
    expect(readFixtureRecord(out)).toMatchObject({ processes: [], dirs: [], sockets: [] });
  }, 120_000);
});
