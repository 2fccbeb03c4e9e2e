/**
 * The postgres-rate workload on a private PostgreSQL cluster (lib/fixture/postgres-process.js): `run --json` over
 * two connections taking turns gives each transport the open-loop figures, the backends' CPU charged per query and
 * no pgbench columns (pgbench runs after the postgres workload's trials, not after an offered rate's). Each query's
 * rows are checked as the postgres workload's are (wrongRows); no test here provokes a wrong answer. Its refusal of
 * --connections past the cluster's share: test/unit/workload-bad-input.test.js. Needs PostgreSQL (CI installs it).
 */
import { describe, expect, it } from 'vitest';
import { callMain } from '../helpers/cli.js';
import { expectPinnedRunKeys } from '../helpers/schema.js';

describe('run --workload postgres-rate --json', () => {
  it('a record per transport with the open-loop figures, the rate sent near the one offered, over the connections asked for', async () => {
    const { code, stdout, stderr } = await callMain(['run', '--workload', 'postgres-rate', '--rate', '500', '--connections', '2', '--duration', '300ms', '--warmup', '50ms', '--json']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('postgres-rate 1 lookup × offered rate (requests/s) 500');
    expect(stderr).toContain('2 connections taking turns');
    // the cluster's line names no pgbench: none runs after an offered rate's trials
    const cluster = stderr.split('\n').find((line) => line.startsWith('postgres: '));
    expect(cluster).toMatch(/the cluster runs as /);
    expect(cluster).not.toContain('pgbench');
    const records = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(records.map((r) => r.transport)).toEqual(['tcp', 'uds']);
    for (const r of records) {
      expectPinnedRunKeys(r, 'postgres-rate');
      expect(r).toMatchObject({ workload: 'postgres-rate', status: 'ok', size_bytes: 1, rate_target: 500, dropped: 0, incomplete: 0, limit: expect.stringMatching(/^(none|server|generator)$/) });
      expect(r.rate_sent).toBeLessThanOrEqual(500 * 1.0005); // never faster than asked
      expect(r.rate_sent).toBeGreaterThan(500 * 0.8); // and near it, on a busy machine too
      expect(r.requests).toBeGreaterThanOrEqual(8 * 50);
      for (const key of ['resp_p50_us', 'resp_p99_us', 'svc_p50_us', 'svc_p99_us', 'lag_p50_us', 'server_cpu_us_per_req', 'client_cpu_us_per_req', 'rate_completed']) {
        expect(r[key], key).toBeGreaterThan(0);
      }
      expect(r.resp_p50_us).toBeGreaterThanOrEqual(r.svc_p50_us);
      expect(r.resp_p99_us).toBeGreaterThanOrEqual(r.svc_p99_us);
    }
  }, 90_000);
});
