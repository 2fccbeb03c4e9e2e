/**
 * The presets of the servers not ours (redis, postgres), each one real
 * `sweep --test` with the tests every preset's sweep must pass, in a file of
 * their own so they run beside sweep-e2e-more.test.js. Each sweep also
 * carries its workload's own behaviours, so that each is swept once: redis's
 * (every reply checked, redis-server's CPU charged, redis-benchmark beside
 * it, its redis-server and private directory gone at the end; the rest of
 * the redis workload: test/cli/redis-workload.test.js) and postgres's (a
 * private cluster, as an unprivileged user when root, every query verified,
 * the backends' CPU charged, pgbench's tps beside pg's, nothing left running
 * or on disk; its refusals: test/cli/postgres-workload.test.js), the
 * latter at one connection (--depths 1): its 16 cost the most and test no
 * more, the server's CPU being the postmaster's and all its children's.
 */
import fs, { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/cli.js';
import { OUTSIDE, SPLIT, describePresetSweeps } from '../helpers/preset-sweeps.js';
import { processesMentioning } from '../helpers/processes.js';
import { readSchemaFixture } from '../helpers/schema.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

/**
 * The postgres sweep's own TMPDIR, so that what it leaves is in plain sight: made now, as the sweeps' settings are
 * read when the tests are collected. As root the cluster runs as nobody (or postgres), who must search it.
 */
const pgTmp = mkdtempSync(join(tmpdir(), 'udsvstcp-test-pg-'));
const root = process.geteuid?.() === 0;
if (root) chmodSync(pgTmp, 0o711);
afterAll(() => rmSync(pgTmp, { recursive: true, force: true }));

const { swept, sweptDir } = describePresetSweeps(OUTSIDE, { dir: () => tmp.dir, runs: { postgres: { args: ['--no-probe'], flags: { depths: '1' }, seed: 11, pinning: SPLIT, env: { TMPDIR: pgTmp }, timeoutMs: 120_000 } } });

/** @param {number} pid */
const alive = (pid) => {
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe('sweep redis --test (swept above): a real redis-server through ioredis', () => {
  it('ok rows for tcp and uds, every reply checked, redis-server CPU per op above 0', async () => {
    const { code, stderr } = swept('redis');
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/^redis-server: \/\S+redis-server \(\d+\.\d+\.\d+; from PATH\)$/m);
    /** @type {Record<string, string>[]} */
    const rows = parse(await readFile(join(sweptDir('redis'), 'trials.csv'), 'utf8'), { columns: true });
    expect(rows.map((r) => r.transport).sort()).toEqual(['tcp', 'tcp', 'tcp', 'tcp', 'uds', 'uds', 'uds', 'uds']);
    for (const r of rows) {
      expect(r.status, r.error).toBe('ok');
      expect(Number(r.ops)).toBeGreaterThan(0);
      expect(Number(r.verified_replies)).toBe(2 * Number(r.ops)); // each op's SET OK and GET's exact bytes
      expect(Number(r.server_cpu_us_per_op)).toBeGreaterThan(0);
      expect(Number(r.client_cpu_us_per_op)).toBeGreaterThan(0);
      expect(Number(r.latency_p99_us)).toBeGreaterThanOrEqual(Number(r.latency_p50_us));
    }
  });

  it('runs redis-benchmark on the same server after each trial into reference.csv, SET and GET per transport', async () => {
    const { stderr } = swept('redis');
    expect(stderr).toMatch(/^redis-benchmark: \/\S+redis-benchmark \(\d+\.\d+\.\d+\), after each trial against the same server, into reference\.csv$/m);
    expect(stderr).toMatch(/^redis-benchmark 16 B in flight 1 SET: tcp \S+ rps, uds \S+ rps \(×\d+\.\d\d, 95 % CI \d+\.\d\d–\d+\.\d\d\) \(median of 2 runs\)$/m);
    const text = await readFile(join(sweptDir('redis'), 'reference.csv'), 'utf8');
    expect(text.split('\n')[0]).toBe(readSchemaFixture('redis/reference.csv').trim());
    /** @type {Record<string, string>[]} */
    const reference = parse(text, { columns: true });
    expect(reference).toHaveLength(2 * 2 * 2 * 2); // runs × sizes × transports × (SET, GET)
    for (const r of reference) {
      expect(r, r.error).toMatchObject({ client: 'redis-benchmark', status: 'ok', depth: '1' });
      expect(Number(r.rps)).toBeGreaterThan(0);
    }
    expect(new Set(reference.map((r) => `${r.transport} ${r.test}`))).toEqual(new Set(['tcp SET', 'tcp GET', 'uds SET', 'uds GET']));
  });

  it("gives redis-benchmark's lines in the report too: summary.md and report.html, said once on stderr", async () => {
    const { stderr } = swept('redis');
    const lines = stderr.split('\n').filter((line) => /^redis-benchmark \d/.test(line));
    expect(lines.map((line) => line.split(':')[0]).sort()).toEqual(['GET', 'SET'].flatMap((test) => ['1 KiB', '16 B'].map((size) => `redis-benchmark ${size} in flight 1 ${test}`)).sort());
    const markdown = await readFile(join(sweptDir('redis'), 'summary.md'), 'utf8');
    expect(markdown).toContain(`## Reference client\n\n${lines.map((line) => `- ${line}`).join('\n')}\n`);
    const html = await readFile(join(sweptDir('redis'), 'report.html'), 'utf8');
    expect(html).toContain('<h2>Reference client</h2>');
    for (const line of lines) expect(html).toContain(line.replace(/&/g, '&amp;'));
  });

  it('leaves no redis-server running and no private directory, and fixture.json empty', async () => {
    const { stderr } = swept('redis');
    const [, pid, dir] = /redis-server pid (\d+): tcp 127\.0\.0\.1:\d+, uds (\S+\/udsvstcp-redis-[A-Za-z0-9]{6})\/redis\.sock/.exec(stderr) ?? [];
    expect(Number(pid), stderr).toBeGreaterThan(0);
    expect(alive(Number(pid))).toBe(false);
    expect(existsSync(dir)).toBe(false);
    expect(JSON.parse(await readFile(join(sweptDir('redis'), 'fixture.json'), 'utf8'))).toMatchObject({ processes: [], dirs: [] });
  });
});

/**
 * Live processes whose working directory is under `dir`: PostgreSQL's backends retitle themselves, but they work in
 * the cluster's data directory.
 * @param {string} dir
 */
function processesWorkingIn(dir) {
  return fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).filter((pid) => {
    try {
      return fs.readlinkSync(`/proc/${pid}/cwd`).startsWith(`${dir}/`);
    } catch {
      return false;
    }
  });
}

describe('sweep postgres --test (swept above): node-postgres against a private PostgreSQL cluster', () => {
  it('says which PostgreSQL ran and as whom, and records every query verified on both transports with the backends\' CPU charged per query, and pgbench\'s transactions per second beside them', async () => {
    const { code, stderr } = swept('postgres');
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/^postgres: \/\S+ \(PostgreSQL \d+\.\d+[^;]*; from [^)]+\); the cluster runs as \S+ \(uid \d+\)/m);
    expect(stderr).toMatch(/^postgres: .*; pgbench \(the C reference\): \/\S+\/pgbench$/m);
    const user = /the cluster runs as (\S+) \(uid (\d+)\)/.exec(stderr);
    if (root) {
      expect(['postgres', 'nobody']).toContain(user?.[1]);
      expect(Number(user?.[2])).toBeGreaterThan(0);
    }
    expect(stderr).toMatch(new RegExp(`postgres pid \\d+ as user ${user?.[1]} \\(uid ${user?.[2]}\\), a private cluster in ${pgTmp}/udsvstcp-postgres-\\w+: tcp 127\\.0\\.0\\.1:\\d+, uds ${pgTmp}/udsvstcp-postgres-\\w+/\\.s\\.PGSQL\\.\\d+ \\(trust on both, ssl off\\)`));
    const meta = JSON.parse(await readFile(join(sweptDir('postgres'), 'meta.json'), 'utf8'));
    expect(meta.design.postgres.user).toContain(`${user?.[1]} (uid ${user?.[2]})`);
    expect(meta.design.postgres.settings).toMatchObject({ listen_addresses: '127.0.0.1', ssl: 'off' });
    expect(meta.design.postgres.pg_hba).toEqual(['local all all trust', 'host all all 127.0.0.1/32 trust']);

    /** @type {Record<string, string>[]} */
    const rows = parse(await readFile(join(sweptDir('postgres'), 'trials.csv'), 'utf8'), { columns: true });
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.status, r.error).toBe('ok'); // a reply not verified fails its trial
    expect(new Set(rows.map((r) => `${r.transport} ${r.size_bytes}`))).toEqual(new Set(['tcp 0', 'tcp 1', 'uds 0', 'uds 1']));
    for (const transport of ['tcp', 'uds']) {
      const mine = rows.filter((r) => r.transport === transport);
      for (const r of mine) expect(Number(r.queries)).toBeGreaterThan(0);
      expect(mine.reduce((sum, r) => sum + Number(r.server_cpu_us_per_query) * Number(r.queries), 0), transport).toBeGreaterThan(0);
      // pgbench, the C reference, ran the same queries on the same transport after each trial's blocks
      for (const r of mine) expect(Number(r.pgbench_tps), r.pgbench_tps).toBeGreaterThan(0);
    }
  });

  it('leaves nothing running and nothing on disk: no process of the cluster, no private directory, fixture.json empty', async () => {
    expect(swept('postgres').code).toBe(0);
    expect(processesMentioning(pgTmp)).toEqual([]);
    expect(processesWorkingIn(pgTmp)).toEqual([]);
    expect(await readdir(pgTmp)).toEqual([]);
    expect(JSON.parse(await readFile(join(sweptDir('postgres'), 'fixture.json'), 'utf8'))).toMatchObject({ processes: [], dirs: [] });
  });
});
