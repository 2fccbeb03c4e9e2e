/**
 * The postgres workload through the real CLI: `sweep postgres --test` makes a
 * private PostgreSQL cluster (initdb, postgres run directly under a guard),
 * measures node-postgres over TCP and over the cluster's Unix socket, and
 * leaves nothing running or on disk. The sweep gets a TMPDIR of its own, so
 * what it leaves is in plain sight; as root the cluster runs as an
 * unprivileged user, who must be able to search that TMPDIR. A --postgres-bin
 * that holds no PostgreSQL is refused in process. Needs PostgreSQL (CI installs it).
 */
import fs from 'node:fs';
import { chmod, mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, runCli } from '../helpers/cli.js';
import { expectRefused } from '../helpers/in-process.js';
import { processesMentioning } from '../helpers/processes.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
/** @type {Awaited<ReturnType<typeof runCli>>} */
let result;
/** @type {string} */
let tmpdir;
const out = () => join(tmp.dir, 'out');
const root = process.geteuid?.() === 0;

beforeAll(async () => {
  tmp = await makeTempDir();
  tmpdir = join(tmp.dir, 'tmp');
  await mkdir(tmpdir);
  // as root the cluster runs as postgres (or nobody), who must reach its private directory through these
  if (root) for (const dir of [tmp.dir, tmpdir]) await chmod(dir, 0o711);
  result = await runCli(['sweep', 'postgres', '--test', '--no-probe', '--seed', '11', '--out', out()], { env: { TMPDIR: tmpdir }, timeoutMs: 120_000 });
}, 150_000);
afterAll(() => tmp?.remove());

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

describe('udsvstcp sweep postgres --test', () => {
  it('exits 0, says which PostgreSQL ran and as whom, and records every query verified on both transports with the backends\' CPU charged per query, and pgbench\'s transactions per second beside them', async () => {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^postgres: \/\S+ \(PostgreSQL \d+\.\d+[^;]*; from [^)]+\); the cluster runs as \S+ \(uid \d+\)/m);
    expect(result.stderr).toMatch(/^postgres: .*; pgbench \(the C reference\): \/\S+\/pgbench$/m);
    const user = /the cluster runs as (\S+) \(uid (\d+)\)/.exec(result.stderr);
    if (root) {
      expect(['postgres', 'nobody']).toContain(user?.[1]);
      expect(Number(user?.[2])).toBeGreaterThan(0);
    }
    expect(result.stderr).toMatch(new RegExp(`postgres pid \\d+ as user ${user?.[1]} \\(uid ${user?.[2]}\\), a private cluster in ${tmpdir}/udsvstcp-postgres-\\w+: tcp 127\\.0\\.0\\.1:\\d+, uds ${tmpdir}/udsvstcp-postgres-\\w+/\\.s\\.PGSQL\\.\\d+ \\(trust on both, ssl off\\)`));
    const meta = JSON.parse(await readFile(join(out(), 'meta.json'), 'utf8'));
    expect(meta.design.postgres.user).toContain(`${user?.[1]} (uid ${user?.[2]})`);
    expect(meta.design.postgres.settings).toMatchObject({ listen_addresses: '127.0.0.1', ssl: 'off' });
    expect(meta.design.postgres.pg_hba).toEqual(['local all all trust', 'host all all 127.0.0.1/32 trust']);

    const rows = /** @type {Record<string, string>[]} */ (parse(await readFile(join(out(), 'trials.csv'), 'utf8'), { columns: true }));
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.status, r.error).toBe('ok'); // a reply not verified fails its trial
    expect(new Set(rows.map((r) => `${r.transport} ${r.size_bytes}`))).toEqual(new Set(['tcp 0', 'tcp 1', 'uds 0', 'uds 1']));
    for (const transport of ['tcp', 'uds']) {
      const mine = rows.filter((r) => r.transport === transport);
      for (const r of mine) expect(Number(r.queries)).toBeGreaterThan(0);
      // /proc counts in 10 ms ticks: a short trial may see none, all of a transport's trials together do
      const serverUs = mine.reduce((sum, r) => sum + Number(r.server_cpu_us_per_query) * Number(r.queries), 0);
      expect(serverUs, transport).toBeGreaterThan(0);
      // pgbench, the C reference, ran the same queries on the same transport after each trial's blocks
      for (const r of mine) expect(Number(r.pgbench_tps), r.pgbench_tps).toBeGreaterThan(0);
    }
  });

  it('leaves nothing running and nothing on disk: no process of the cluster, no private directory', async () => {
    expect(result.code, result.stderr).toBe(0);
    expect(processesMentioning(tmpdir)).toEqual([]);
    expect(processesWorkingIn(tmpdir)).toEqual([]);
    expect(await readdir(tmpdir)).toEqual([]);
  });

  it('refuses a --postgres-bin that holds no initdb and postgres with one line naming the package and the flag, before anything starts', async () => {
    await expectRefused(['sweep', 'postgres', '--test', '--postgres-bin', join(tmp.dir, 'no-postgres-here'), '--out', join(tmp.dir, 'refused')], /--postgres-bin \S+: no executable initdb and postgres there; install it \(Debian\/Ubuntu: apt-get install postgresql\) or give --postgres-bin DIR/);
    expect(fs.existsSync(join(tmp.dir, 'refused'))).toBe(false);
  });
});
