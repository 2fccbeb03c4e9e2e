/**
 * The presets sweep-e2e.test.js does not sweep (and that need no network
 * namespace: server-netns.test.js; nor open loop: sweep-e2e-open.test.js,
 * so the two run in workers of their own), each one real `sweep --test` with
 * the tests every preset's sweep must pass. A new preset lands here. The
 * redis preset's sweep also carries the redis workload's own behaviours:
 * every reply checked, redis-server's CPU charged, redis-benchmark beside it,
 * and its redis-server and private directory gone at the end (the rest of
 * the redis workload: test/cli/redis-workload.test.js).
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/cli.js';
import { OPEN, OWN, PRESETS, describePresetSweeps } from '../helpers/preset-sweeps.js';
import { readSchemaFixture } from '../helpers/schema.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

const MORE = PRESETS.filter((preset) => !(preset in OWN) && !OPEN.includes(preset));

it('sweeps every preset that sweep-e2e.test.js and sweep-e2e-open.test.js do not (and none twice)', () => {
  expect([...MORE, ...Object.keys(OWN), ...OPEN].sort()).toEqual([...PRESETS].sort());
  expect(OPEN.length).toBeGreaterThan(0);
  expect(MORE.length).toBeGreaterThan(0);
});

const { swept, sweptDir } = describePresetSweeps(MORE, { dir: () => tmp.dir });

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
    expect(stderr).toMatch(/^redis-benchmark 16 B depth 1 SET: tcp \S+ rps, uds \S+ rps \(×\d+\.\d\d\) \(median of 2 runs\)$/m);
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

  it('leaves no redis-server running and no private directory, and fixture.json empty', async () => {
    const { stderr } = swept('redis');
    const [, pid, dir] = /redis-server pid (\d+): tcp 127\.0\.0\.1:\d+, uds (\S+\/udsvstcp-redis-[A-Za-z0-9]{6})\/redis\.sock/.exec(stderr) ?? [];
    expect(Number(pid), stderr).toBeGreaterThan(0);
    expect(alive(Number(pid))).toBe(false);
    expect(existsSync(dir)).toBe(false);
    expect(JSON.parse(await readFile(join(sweptDir('redis'), 'fixture.json'), 'utf8'))).toMatchObject({ processes: [], dirs: [] });
  });
});
