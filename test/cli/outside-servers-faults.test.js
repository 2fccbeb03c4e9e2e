/**
 * The servers not ours (redis-server, a private PostgreSQL cluster) however a
 * sweep ends, issue #23's "leaving no server, directory or port behind after
 * a normal end, Ctrl-C, or a SIGKILL followed by --resume", and as an
 * ordinary user. Each sweep is the smallest (--test, one trial, --no-probe
 * --no-report) and serves several checks:
 * - Ctrl-C while the C reference client runs (a stand-in that says when it
 *   starts and then waits): exit 130, that run killed and no other started,
 *   nothing left (process, private directory, port); the trial is not kept,
 *   and --resume measures it with the real client;
 * - postgres killed with its helpers (SIGKILL): --resume ends the cluster
 *   and its directory, and says so; its pgbench (a stand-in that fails)
 *   failing is a warning naming why, not empty cells alone; redis-benchmark's
 *   failure likewise, on redis's resume. Postgres's three sessions share one
 *   results directory (Ctrl-C; its --resume killed; the next --resume, whose
 *   first pgbench fails and second is the real one), a cluster each;
 * - `sweep redis --test` and `sweep postgres --test` as an ordinary user
 *   (`nobody`, when we are root; else as ourselves, who are one);
 * - as root, a TMPDIR the cluster's user cannot search: exit 2, one line,
 *   before the results directory exists.
 * Needs redis-server, redis-benchmark and PostgreSQL (CI installs them).
 * SIGKILL of redis with --resume: test/cli/redis-workload.test.js; the
 * presets' normal end: test/cli/sweep-e2e-servers.test.js.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { findRedisBenchmark } from '../../lib/client/redis-benchmark.js';
import { findPgbench } from '../../lib/fixture/pgbench.js';
import { findPostgres } from '../../lib/fixture/postgres-process.js';
import { BIN, callMain, makeTempDir, runCli, runScript } from '../helpers/cli.js';
import { descendants, isRunning, isStopped } from '../helpers/processes.js';
import { readFixtureRecord, readMetaJson, startSweep } from '../helpers/sweeps.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Each test's own directory (the tests of a describe.concurrent run at once), removed at the end, and the processes it
 * saw, killed at the end if still running (a failed test leaves nothing either).
 */
const cleanups = /** @type {(() => Promise<void> | void)[]} */ ([]);
afterAll(async () => { for (const cleanup of cleanups) await cleanup(); });
async function testDir() {
  const tmp = await makeTempDir();
  cleanups.push(() => tmp.remove());
  return tmp.dir;
}
/** @param {import('../helpers/processes.js').ProcessSeen[]} seen */
const killLater = (seen) => cleanups.unshift(() => { for (const p of seen.filter(isRunning)) process.kill(p.pid, 'SIGKILL'); });
const root = process.geteuid?.() === 0;
const BASE = ['--test', '--runs', '1', '--depths', '1', '--pin', 'none', '--no-probe', '--no-report'];
const REDIS = ['sweep', 'redis', ...BASE, '--sizes', '16'];
const POSTGRES = ['sweep', 'postgres', ...BASE, '--sizes', '0'];
/** The real ones, which the stand-ins run when told to pass. */
const PG_BIN = findPostgres();
const PGBENCH = findPgbench(PG_BIN) ?? 'no-pgbench-beside-postgres';
const REDIS_BENCHMARK = findRedisBenchmark() ?? 'no-redis-benchmark-on-PATH';

/** Who runs the ordinary user's sweeps: nobody, when we are root. */
const NOBODY = (() => {
  if (!root) return null;
  const line = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('nobody:'));
  if (!line) throw new Error('no `nobody` in /etc/passwd: the ordinary user\'s sweeps cannot run');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
})();


/**
 * A stand-in for a C reference client in `dir`: it logs each start (its pid) to `dir`/starts, then does what the file
 * `dir`/mode says: `wait` (sleeps; a Ctrl-C must kill it), `fail` (exit 1 with a message), `fail-once` (as `fail`, then
 * `pass` from the next start on), `pass` (execs the real one).
 * `--version` always execs the real one.
 * @param {string} dir
 * @param {string} name
 * @param {string} real
 */
function standIn(dir, name, real) {
  fs.writeFileSync(join(dir, name), `#!/bin/sh
[ "$1" = --version ] && exec ${real} "$@"
echo $$ >> ${dir}/starts
case "$(cat ${dir}/mode)" in
  wait) exec sleep 60 ;;
  fail) echo "stand-in ${name}: no connection today" >&2; exit 1 ;;
  fail-once) echo pass > ${dir}/mode; echo "stand-in ${name}: no connection today" >&2; exit 1 ;;
  *) exec ${real} "$@" ;;
esac
`, { mode: 0o755 });
  return {
    mode: (/** @type {string} */ mode) => fs.writeFileSync(join(dir, 'mode'), mode),
    starts: () => (fs.existsSync(join(dir, 'starts')) ? fs.readFileSync(join(dir, 'starts'), 'utf8').trim().split('\n').map(Number) : []),
  };
}

/** A PostgreSQL directory of the real initdb and postgres, and a stand-in pgbench. @param {string} tmp */
function fakePgbenchDir(tmp) {
  const dir = join(tmp, 'pgbin');
  fs.mkdirSync(dir);
  for (const name of ['initdb', 'postgres']) fs.symlinkSync(join(PG_BIN, name), join(dir, name));
  return { dir, ...standIn(dir, 'pgbench', PGBENCH) };
}

/** A PATH whose first directory holds a stand-in redis-benchmark. @param {string} tmp */
function fakeRedisBenchmark(tmp) {
  const dir = join(tmp, 'bin');
  fs.mkdirSync(dir);
  return { path: `${dir}:${process.env.PATH}`, ...standIn(dir, 'redis-benchmark', REDIS_BENCHMARK) };
}

/** @param {number} port @returns {Promise<boolean>} nothing listens on 127.0.0.1:port (we can take it) */
function portFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Live processes working in `dir` or naming it (PostgreSQL's backends retitle themselves, but work in its data directory). */
function processesIn(/** @type {string} */ dir) {
  return fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).filter((pid) => {
    try {
      return fs.readlinkSync(`/proc/${pid}/cwd`).startsWith(`${dir}/`) || fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`${dir}/`);
    } catch {
      return false;
    }
  });
}

/**
 * Nothing of the server left: its leader (pid from the describe line) gone, no process in or naming the sweep's
 * TMPDIR, that directory empty, its port free.
 * @param {string} stderr
 * @param {string} serverTmp
 * @param {string} role
 */
async function expectNothingLeft(stderr, serverTmp, role) {
  const [, pid, port] = new RegExp(`${role} pid (\\d+)[^\\n]*: tcp 127\\.0\\.0\\.1:(\\d+)`).exec(stderr) ?? [];
  expect(Number(pid), stderr).toBeGreaterThan(0);
  expect(fs.existsSync(`/proc/${pid}`) && !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))).toBe(false);
  expect(processesIn(serverTmp)).toEqual([]);
  expect(await readdir(serverTmp)).toEqual([]);
  expect(await portFree(Number(port))).toBe(true);
}

/** @param {string} out @param {string} name */
async function readCsv(out, name) {
  return /** @type {Record<string, string>[]} */ (parse(await readFile(join(out, name), 'utf8'), { columns: true }));
}

/**
 * A TMPDIR of the sweep's own in `tmp`, searchable by the cluster's user when we are root (as tmp's parent must be).
 * @param {string} tmp
 */
function serverTmpDir(tmp) {
  const dir = join(tmp, 'tmp');
  fs.mkdirSync(dir);
  if (root) {
    fs.chmodSync(tmp, 0o711);
    fs.chmodSync(dir, 0o711);
  }
  return dir;
}

/** @param {number} pid a `sleep` still runs there */
const sleeping = (pid) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('sleep\0') && !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/**
 * Start a sweep and SIGINT it when the stand-in logs its first start; then wait for it.
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 * @param {{ starts: () => number[] }} stand
 */
async function ctrlCDuringReference(args, env, stand) {
  const sweep = startSweep(args.slice(1), { env });
  // a sweep that outlives its Ctrl-C by far (it waits for the stand-in's minute) is killed: the test fails, nothing stays
  cleanups.unshift(() => { for (const pid of stand.starts()) if (sleeping(pid)) process.kill(pid, 'SIGKILL'); });
  const started = await waitFor(() => stand.starts().length > 0, { timeoutMs: 60_000, everyMs: 20 });
  const waiting = stand.starts();
  sweep.child.kill(started ? 'SIGINT' : 'SIGKILL');
  const late = setTimeout(() => sweep.child.kill('SIGKILL'), 30_000);
  const done = await sweep.done;
  clearTimeout(late);
  expect(started, done.stderr).toBe(true);
  return { ...done, waiting };
}

describe.concurrent('Ctrl-C while the C reference client runs: it is killed, none starts after, nothing is left, and --resume measures the trial', () => {
  it('postgres: pgbench; its --resume killed with its helpers (SIGKILL), the next --resume ends the cluster left and its directory, measures the trial, and pgbench failing is a warning naming why', async () => {
    const tmp = await testDir();
    const serverTmp = serverTmpDir(tmp);
    const out = join(tmp, 'out');
    const pgbench = fakePgbenchDir(tmp);
    pgbench.mode('wait');
    const env = { TMPDIR: serverTmp };
    const { code, stderr, waiting } = await ctrlCDuringReference([...POSTGRES, '--postgres-bin', pgbench.dir, '--out', out], env, pgbench);
    expect(code, stderr).toBe(130);
    expect(pgbench.starts()).toEqual(waiting); // the one that ran when Ctrl-C came, and no other
    expect(waiting).toHaveLength(1);
    expect(sleeping(waiting[0])).toBe(false); // killed with the sweep's signal
    await expectNothingLeft(stderr, serverTmp, 'postgres');
    expect(fs.existsSync(join(out, 'trials.csv')) ? await readCsv(out, 'trials.csv') : []).toEqual([]); // its reference cut short: not kept
    const first = Number(/postgres pid (\d+)/.exec(stderr)?.[1]);

    // the same directory resumed, and that session killed with its helpers while its cluster runs
    const child = spawn(process.execPath, [BIN, 'sweep', '--resume', out, '--postgres-bin', pgbench.dir, '--no-probe', '--no-report'], { env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let killedStderr = '';
    child.stderr.setEncoding('utf8').on('data', (text) => { killedStderr += text; });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const pid = /** @type {number} */ (child.pid);
    const ready = await waitFor(() => readFixtureRecord(out)?.processes.some((/** @type {any} */ p) => p.role === 'postgres' && p.pid !== first), { timeoutMs: 60_000, everyMs: 20 });
    if (!ready) child.kill('SIGKILL');
    expect(ready, killedStderr).toBe(true);
    // everything of ours at once, so that nothing can clean up after the others; the cluster is left
    process.kill(pid, 'SIGSTOP');
    expect(await waitFor(() => isStopped(pid), { timeoutMs: 10_000, everyMs: 20 })).toBe(true);
    const record = readFixtureRecord(out);
    const postmaster = record.processes.find((/** @type {any} */ p) => p.role === 'postgres');
    const seen = descendants(pid);
    killLater(seen);
    const helpers = seen.filter((p) => /guard-main\.js|trial\/worker\.js|sleep 60/.test(p.cmdline));
    for (const p of helpers) process.kill(p.pid, 'SIGKILL');
    child.kill('SIGKILL');
    await exited;
    expect(isRunning(postmaster)).toBe(true); // left running: nothing was there to end it
    const [privateDir] = record.dirs;
    expect(fs.existsSync(privateDir)).toBe(true);

    // the first pgbench of this resume fails, the next runs the real one
    pgbench.mode('fail-once');
    const resumed = await runCli(['sweep', '--resume', out, '--postgres-bin', pgbench.dir, '--no-probe', '--no-report'], { env, timeoutMs: 90_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`note: ended what an earlier session of this sweep left behind (fixture.json): killed postgres pid ${postmaster.pid} (and its backends); removed ${privateDir}`);
    expect(isRunning(postmaster)).toBe(false);
    const rows = await readCsv(out, 'trials.csv');
    expect(rows.map((r) => `${r.transport} ${r.status}`).sort()).toEqual(['tcp ok', 'uds ok']);
    expect(rows.map((r) => r.pgbench_tps === '')).toEqual([true, false]); // the failed one's cells empty
    expect(Number(rows[1].pgbench_tps), resumed.stderr).toBeGreaterThan(0); // the trial measured with the real client
    expect(resumed.stderr).toMatch(new RegExp(`^warning: pgbench failed in 1 run\\(s\\): their pgbench_tps is empty in trials\\.csv; the first: ${rows[0].transport} SELECT 1 -c 1: pgbench failed \\(exit code 1\\): stand-in pgbench: no connection today$`, 'm'));
    expect((await readMetaJson(out)).status).toBe('complete');
    await expectNothingLeft(resumed.stderr, serverTmp, 'postgres');
  }, 180_000);

  it('redis: redis-benchmark; and on the resume, redis-benchmark failing is a warning naming why', async () => {
    const tmp = await testDir();
    const serverTmp = serverTmpDir(tmp);
    const out = join(tmp, 'out');
    const bench = fakeRedisBenchmark(tmp);
    bench.mode('wait');
    const env = { TMPDIR: serverTmp, PATH: bench.path };
    const { code, stderr, waiting } = await ctrlCDuringReference([...REDIS, '--out', out], env, bench);
    expect(code, stderr).toBe(130);
    expect(bench.starts()).toEqual(waiting);
    expect(waiting).toHaveLength(1);
    expect(sleeping(waiting[0])).toBe(false);
    await expectNothingLeft(stderr, serverTmp, 'redis-server');
    expect(fs.existsSync(join(out, 'trials.csv')) ? await readCsv(out, 'trials.csv') : []).toEqual([]);
    expect(fs.existsSync(join(out, 'reference.csv'))).toBe(false);

    bench.mode('fail');
    const resumed = await runCli(['sweep', '--resume', out, '--no-probe', '--no-report'], { env, timeoutMs: 60_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await readCsv(out, 'trials.csv')).map((r) => `${r.transport} ${r.status}`).sort()).toEqual(['tcp ok', 'uds ok']);
    const reference = await readCsv(out, 'reference.csv');
    expect(reference.map((r) => `${r.transport} ${r.status}`).sort()).toEqual(['tcp error', 'uds error']);
    expect(reference[0].error).toContain('stand-in redis-benchmark: no connection today');
    expect(resumed.stderr).toMatch(/^warning: redis-benchmark failed in 2 run\(s\) \(status error in reference\.csv\); the first: redis-benchmark .*stand-in redis-benchmark: no connection today$/m);
    await expectNothingLeft(resumed.stderr, serverTmp, 'redis-server');
  }, 120_000);
});

/**
 * A directory `nobody` owns (mode 0700) in the OS temp dir, or the reason nobody could not reach it.
 * @param {string} name
 */
async function nobodysDir(name) {
  const dir = await mkdtemp(join(tmpdir(), `udsvstcp-test-${name}-`));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  if (NOBODY) fs.chownSync(dir, NOBODY.uid, NOBODY.gid);
  return dir;
}

/**
 * Why `nobody` cannot run this checkout (a directory on the way not searchable by others, a file not readable), or null.
 * @param {string[]} paths
 */
function unreadableByOthers(paths) {
  for (const path of paths) {
    for (let d = path; ; d = dirname(d)) {
      const { mode } = fs.statSync(d);
      const need = d === path && !fs.statSync(d).isDirectory() ? 0o004 : 0o001;
      if (!(mode & need)) return `${d} (mode ${(mode & 0o777).toString(8)}) is not ${need === 0o004 ? 'readable' : 'searchable'} by others: nobody cannot run ${path}`;
      if (d === dirname(d)) break;
    }
  }
  return null;
}

describe.concurrent(`as an ordinary user (${NOBODY ? 'nobody' : 'ourselves'}): sweep --test ends with ok rows and leaves nothing`, () => {
  for (const [workload, args] of /** @type {const} */ ([['redis', REDIS], ['postgres', POSTGRES]])) {
    it(workload, async () => {
      const modules = fs.realpathSync(join(dirname(BIN), '..', 'node_modules'));
      const why = unreadableByOthers([tmpdir(), process.execPath, BIN, join(modules, 'pg', 'package.json'), join(modules, 'ioredis', 'package.json')]);
      expect(why, 'the checkout, its node_modules and node must be readable by nobody').toBeNull();
      const serverTmp = await nobodysDir(`${workload}-tmp`);
      const home = await nobodysDir(`${workload}-out`);
      const out = join(home, 'out');
      const result = await runScript(BIN, [...args, '--out', out], { env: { TMPDIR: serverTmp, HOME: home }, timeoutMs: 90_000, ...(NOBODY ?? {}) });
      expect(result.code, result.stderr).toBe(0);
      const rows = await readCsv(out, 'trials.csv');
      expect(rows.map((r) => `${r.transport} ${r.status}`).sort(), rows.map((r) => r.error).join('; ')).toEqual(['tcp ok', 'uds ok']);
      if (workload === 'postgres') expect(result.stderr).toMatch(new RegExp(`the cluster runs as ${NOBODY ? 'nobody' : '\\S+'} \\(uid ${NOBODY ? NOBODY.uid : process.getuid?.()}\\)`));
      if (NOBODY) expect(fs.statSync(join(out, 'trials.csv')).uid).toBe(NOBODY.uid);
      await expectNothingLeft(result.stderr, serverTmp, workload === 'redis' ? 'redis-server' : 'postgres');
    }, 120_000);
  }
});

describe('as root, a TMPDIR the cluster\'s user cannot search', () => {
  it(root ? 'is refused: exit 2, one line naming the directory and the user, before the results directory exists' : 'needs no check: the cluster runs as ourselves (we are not root)', async () => {
    const tmp = await testDir();
    const closed = join(tmp, 'closed');
    fs.mkdirSync(closed, { mode: 0o700 });
    fs.chmodSync(tmp, 0o711);
    const out = join(tmp, 'out');
    const { checkClusterTempDir, clusterUser } = await import('../../lib/fixture/postgres-process.js');
    if (!root) {
      expect(() => checkClusterTempDir(closed, clusterUser())).not.toThrow();
      return;
    }
    const result = await callMain([...POSTGRES, '--out', out], { env: { TMPDIR: closed } });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toEqual([`udsvstcp: error: TMPDIR ${closed}: the postgres cluster runs as nobody (PostgreSQL refuses root), who cannot search ${closed} (mode 0700) to reach its private directory there; set TMPDIR to a directory nobody can search, such as /tmp`]);
    expect(fs.existsSync(out)).toBe(false);
    expect(await readdir(closed)).toEqual([]);
  });
});
