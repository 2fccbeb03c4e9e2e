/**
 * The redis workload with a real redis-server and ioredis, beside the
 * preset's own `sweep redis --test` in sweep-e2e-servers (every reply checked,
 * redis-server's CPU per operation, redis-benchmark into reference.csv,
 * nothing left running): a sweep killed together with redis-server's guard
 * leaves redis-server running, and `--resume` ends it and removes its
 * directory; a --redis-server that is not there, no redis-server anywhere, a
 * transport redis-server cannot listen on, --redis-server for another
 * workload and `serve --workload redis` are refused before anything starts.
 * --clients and --batch (issue #23: concurrency 50, pipelines of 16): a run
 * of each verifies every reply, and a lane of --clients 3 holds 3 connections
 * per transport, as redis-server's CLIENT LIST shows.
 * Needs redis-server and redis-benchmark (CI installs both).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { findRedisBenchmark, runRedisBenchmark } from '../../lib/client/redis-benchmark.js';
import { createRedisLoad } from '../../lib/client/redis-load.js';
import { findRedisServer, startRedis } from '../../lib/fixture/redis-process.js';
import { BIN, callMain } from '../helpers/cli.js';
import { expectRefused } from '../helpers/in-process.js';
import { descendants, isRunning, isStopped, trackProcesses } from '../helpers/processes.js';
import { readFixtureRecord, readMetaJson } from '../helpers/sweeps.js';
import { waitFor } from '../helpers/wait.js';

const ctx = trackProcesses();

describe('sweep redis', () => {
  it('--resume ends the redis-server a killed sweep left running (its guard killed too) and removes its private directory', async () => {
    const tmpdir = join(ctx.tmp.dir, 'tmp');
    await mkdir(tmpdir);
    const out = join(ctx.tmp.dir, 'out');
    const env = { ...process.env, NO_COLOR: '1', TMPDIR: tmpdir };
    const child = spawn(process.execPath, [BIN, 'sweep', 'redis', '--test', '--runs', '1', '--sizes', '16', '--no-probe', '--no-report', '--out', out], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text) => { stderr += text; });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const pid = /** @type {number} */ (child.pid);
    const ready = await waitFor(() => readFixtureRecord(out)?.processes.some((/** @type {any} */ p) => p.role === 'redis-server'), { timeoutMs: 60_000, everyMs: 20 });
    expect(ready, stderr).toBe(true);

    // everything at once, so that nothing can clean up after the others: stop the sweep, kill its helpers, kill it
    process.kill(pid, 'SIGSTOP');
    expect(await waitFor(() => isStopped(pid), { timeoutMs: 10_000, everyMs: 20 })).toBe(true);
    ctx.seen = descendants(pid);
    const helpers = ctx.seen.filter((p) => /guard-main\.js|trial\/worker\.js/.test(p.cmdline));
    expect(helpers.length).toBeGreaterThanOrEqual(1);
    for (const p of helpers) process.kill(p.pid, 'SIGKILL');
    child.kill('SIGKILL');
    await exited;
    const redis = ctx.seen.filter((p) => p.cmdline.startsWith('/usr/bin/redis-server') || /redis-server \S+:\d+/.test(p.cmdline));
    expect(redis, ctx.seen.map((p) => p.cmdline).join('\n')).toHaveLength(1);
    expect(await waitFor(() => helpers.every((p) => !isRunning(p)), { timeoutMs: 10_000, everyMs: 20 })).toBe(true);
    expect(redis.every(isRunning)).toBe(true); // left running: nothing was there to end it
    const names = await readdir(tmpdir);
    expect(names.filter((n) => /^udsvstcp-redis-[A-Za-z0-9]{6}$/.test(n)), names.join(', ')).toHaveLength(1);

    const resumed = await callMain(['sweep', '--resume', out, '--no-probe', '--no-report'], { env: { TMPDIR: tmpdir } });
    expect(resumed.code, resumed.stderr).toBe(0);
    const notes = resumed.stderr.split('\n').filter((line) => line.includes('fixture.json'));
    expect(notes).toEqual([`note: ended what an earlier session of this sweep left behind (fixture.json): killed redis-server pid ${redis[0].pid}; removed ${join(tmpdir, names[0])}`]);
    expect(redis.filter(isRunning)).toEqual([]);
    expect(existsSync(join(tmpdir, names[0]))).toBe(false);
    expect(await readdir(tmpdir)).toEqual([]); // and the resumed session's own are gone too
    expect((await readMetaJson(out)).status).toBe('complete');
  }, 120_000);
});

describe('the redis workload with --clients and --batch', () => {
  /** @param {string} stdout run --json's: a record per transport */
  const recordsOf = (stdout) => stdout.trim().split('\n').map((line) => JSON.parse(line));

  it('run --clients 3 --depth 2: ok records, every reply verified (two per op)', async () => {
    const { code, stdout, stderr } = await callMain(['run', '--workload', 'redis', '--clients', '3', '--depth', '2', '--duration', '100ms', '--warmup', '20ms', '--json']);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/operations in flight 2, .*, 3 clients, no pipeline\(\)/);
    const records = recordsOf(stdout);
    expect(records.map((r) => r.transport)).toEqual(['tcp', 'uds']);
    for (const r of records) {
      expect(r.status, r.error).toBe('ok');
      expect(r.ops).toBeGreaterThanOrEqual(8 * 20 * 3 * 2); // 8 blocks of the floor, 20 × --depth 2 × --clients 3
      expect(r.verified_replies).toBe(2 * r.ops);
    }
  }, 60_000);

  it('run --batch 4: ok records, every reply in the pipelines verified', async () => {
    const { code, stdout, stderr } = await callMain(['run', '--workload', 'redis', '--batch', '4', '--duration', '100ms', '--warmup', '20ms', '--json']);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/, 1 client, pipelines of 4,/);
    for (const r of recordsOf(stdout)) {
      expect(r.status, r.error).toBe('ok');
      expect(r.ops).toBeGreaterThanOrEqual(8 * 20 * 4);
      expect(r.verified_replies).toBe(2 * r.ops);
    }
  }, 60_000);

  it('sweep --clients 2 --batch 2 says both in its header, records both in meta.json\'s spec, and --resume with another --clients is refused', async () => {
    const out = join(ctx.tmp.dir, 'swept');
    const swept = await callMain(['sweep', '--workload', 'redis', '--sizes', '16', '--depths', '1', '--runs', '1', '--test', '--clients', '2', '--batch', '2', '--no-probe', '--no-report', '--out', out]);
    expect(swept.code, swept.stderr).toBe(0);
    // the header says what differs from one connection without pipeline()
    expect(swept.stderr).toMatch(/^sweep .*; 2 clients per transport; pipelines of 2; seed /m);
    const meta = await readMetaJson(out);
    expect([meta.spec.clients, meta.spec.batch]).toEqual([2, 2]);
    await expectRefused(['sweep', '--resume', out, '--clients', '3', '--no-probe'], /--clients 3 \(recorded: 2\) differ from what meta\.json records/);
  }, 60_000);

  it('a lane of --clients 3 holds 3 connections per transport, as redis-server counts them (CLIENT LIST)', async () => {
    const redis = await startRedis({ binary: findRedisServer() });
    const side = new Redis({ ...redis.tcp, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    const loads = [createRedisLoad({ transport: 'tcp', ...redis.tcp }, { size: 16, depth: 2, clients: 3, seed: 1, timeoutMs: 5000 }),
      createRedisLoad({ transport: 'uds', ...redis.uds }, { size: 16, depth: 2, clients: 3, batch: 2, seed: 1, timeoutMs: 5000 })];
    try {
      const blocks = await Promise.all(loads.map((load) => load.block(30)));
      expect(blocks.map((b) => b.verified)).toEqual([60, 60]);
      await side.connect();
      const list = /** @type {string} */ (await side.call('CLIENT', 'LIST')).trim().split('\n');
      const others = list.filter((line) => !/ cmd=client\|list /.test(line));
      // the side connection is TCP too; redis-server shows a socket client's addr as /path:0
      expect(others.filter((line) => / addr=127\.0\.0\.1:/.test(line)), list.join('\n')).toHaveLength(3);
      expect(others.filter((line) => / laddr=\/.*redis\.sock:0 /.test(line)), list.join('\n')).toHaveLength(3);
      // redis-benchmark beside it: -c clients, -P the commands in flight per connection (depth; depth × 2 × batch in pipelines)
      const binary = findRedisBenchmark();
      expect(binary, 'redis-benchmark (redis-tools) is needed here').toBeTruthy();
      const argv = join(ctx.tmp.dir, 'argv');
      const prefix = ['/bin/sh', '-c', `echo "$@" >> ${argv}; exec "$@"`, 'sh'];
      for (const batch of [1, 2]) {
        const rows = await runRedisBenchmark({ binary: /** @type {string} */ (binary), target: { transport: 'tcp', ...redis.tcp }, size: 16, depth: 2, clients: 3, batch, requests: 1000, prefix });
        expect(rows.map((r) => r.test)).toEqual(['SET', 'GET']);
      }
      expect(readFileSync(argv, 'utf8').trim().split('\n').map((line) => / -c (\d+) -P (\d+) /.exec(line)?.slice(1))).toEqual([['3', '2'], ['3', '8']]);
    } finally {
      side.disconnect();
      await Promise.all(loads.map((load) => load.close()));
      await redis.stop();
    }
  }, 60_000);
});

describe('the redis workload refuses before anything starts', () => {
  it('a --redis-server that is not there: one line naming the flag and apt-get install redis-server', async () => {
    await expectRefused(['run', '--workload', 'redis', '--redis-server', '/nonexistent/redis-server', '--duration', '50ms', '--warmup', '10ms'],
      'udsvstcp: error: --redis-server /nonexistent/redis-server: not an executable file; install it (Debian/Ubuntu: apt-get install redis-server) or give --redis-server PATH');
    const out = join(ctx.tmp.dir, 'results');
    await expectRefused(['sweep', 'redis', '--test', '--redis-server', '/nonexistent/redis-server', '--out', out], /--redis-server \/nonexistent\/redis-server: not an executable file/);
    expect(existsSync(out)).toBe(false);
  });

  it('no redis-server on PATH nor in /usr/bin: the one line says to install it or give the flag', () => {
    expect(() => findRedisServer(undefined, [join(ctx.tmp.dir, 'nothing-here')])).toThrow(/^the redis workload needs redis-server: not found on PATH or in \/usr\/bin; install it \(Debian\/Ubuntu: apt-get install redis-server\) or give --redis-server PATH$/);
  });

  it('a transport redis-server cannot listen on, --redis-server for another workload or in a spec file, and serve', async () => {
    await expectRefused(['run', '--workload', 'redis', '--transport', 'tcp,uds-abstract'], /--transport .*uds-abstract/);
    await expectRefused(['run', '--workload', 'echo', '--redis-server', '/usr/bin/redis-server'], /--redis-server/);
    await expectRefused(['serve', '--workload', 'redis'], /serve --workload redis: its server is a real redis-server/);
    const spec = join(ctx.tmp.dir, 'spec.json');
    writeFileSync(spec, JSON.stringify({ workload: 'redis', sizes: [16], redisServer: '/tmp/evil' }));
    await expectRefused(['sweep', spec, '--out', join(ctx.tmp.dir, 'out')], /"redisServer" is not read from a spec file: the redis-server executable comes only from --redis-server or PATH/);
  });
});
