/**
 * The redis-rate workload on a real redis-server (lib/fixture/redis-process.js): `run --json` gives each transport
 * the open-loop figures, every GET's reply verified and redis-server's CPU charged per request, and a sweep of it
 * writes the results files test/fixtures/schema pins. Its replies checked against a server that lies or goes
 * silent: test/integration/redis-verify.test.js. Needs redis-server (CI installs it).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMain, makeTempDir } from '../helpers/cli.js';
import { expectPinnedHeaders, expectPinnedRunKeys } from '../helpers/schema.js';
import { readTrialRows } from '../helpers/sweeps.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

describe('run --workload redis-rate --json', () => {
  it('a record per transport with the open-loop figures, the rate sent near the one offered, every reply verified, redis-server\'s CPU per request', async () => {
    const { code, stdout, stderr } = await callMain(['run', '--workload', 'redis-rate', '--rate', '500', '--duration', '300ms', '--warmup', '50ms', '--json']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('redis-rate value size 16 B × offered rate (requests/s) 500');
    const records = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(records.map((r) => r.transport)).toEqual(['tcp', 'uds']);
    for (const r of records) {
      expectPinnedRunKeys(r, 'redis-rate');
      expect(r).toMatchObject({ workload: 'redis-rate', status: 'ok', rate_target: 500, dropped: 0, incomplete: 0, limit: expect.stringMatching(/^(none|server|generator)$/) });
      expect(r.rate_sent).toBeLessThanOrEqual(500 * 1.0005); // never faster than asked
      expect(r.rate_sent).toBeGreaterThan(500 * 0.8); // and near it, on a busy machine too
      expect(r.requests).toBeGreaterThanOrEqual(8 * 50); // 8 segments of 100 ms of schedule at least
      expect(r.verified_replies).toBe(r.requests); // none dropped: every request offered was sent, answered and checked
      for (const key of ['resp_p50_us', 'resp_p99_us', 'svc_p50_us', 'svc_p99_us', 'lag_p50_us', 'server_cpu_us_per_req', 'client_cpu_us_per_req', 'rate_completed']) {
        expect(r[key], key).toBeGreaterThan(0);
      }
      expect(r.resp_p50_us).toBeGreaterThanOrEqual(r.svc_p50_us);
      expect(r.resp_p99_us).toBeGreaterThanOrEqual(r.svc_p99_us);
    }
  }, 60_000);
});

describe('sweep --workload redis-rate --depths 300', () => {
  it('ok rows at the rate offered, each reply verified, with the header lines test/fixtures/schema pins', async () => {
    const out = join(tmp.dir, 'sweep');
    const { code, stderr } = await callMain(['sweep', '--workload', 'redis-rate', '--sizes', '64', '--depths', '300', '--runs', '1', '--test', '--no-probe', '--no-report', '--quiet', '--out', out]);
    expect(code, stderr).toBe(0);
    await expectPinnedHeaders(out, 'redis-rate');
    const rows = await readTrialRows(out);
    expect(rows.map((r) => r.transport).sort()).toEqual(['tcp', 'uds']);
    for (const r of rows) {
      expect(r.status, r.error).toBe('ok');
      expect(r).toMatchObject({ workload: 'redis-rate', size_bytes: '64', depth: '300', rate_target: '300', dropped: '0' });
      expect(Number(r.verified_replies)).toBe(Number(r.requests));
      expect(Number(r.server_cpu_us_per_req)).toBeGreaterThan(0);
    }
  }, 60_000);
});
