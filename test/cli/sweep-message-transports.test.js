/**
 * A sweep over TCP and the message transports: each trial process forks its
 * own IPC echo children and starts its own worker thread, measures them beside
 * TCP, and leaves nothing running.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, runCli } from '../helpers/cli.js';
import { processesWithEnvironment } from '../helpers/processes.js';
import { readTrialRows, writeTinySpec } from '../helpers/sweeps.js';

const TRANSPORTS = ['tcp', 'ipc-json', 'ipc-advanced', 'worker'];

describe('sweep with transports tcp, ipc-json, ipc-advanced, worker', () => {
  /** @type {{ dir: string, remove: () => Promise<void> }} */
  let tmp;
  /** @type {Awaited<ReturnType<typeof runCli>>} */
  let result;
  // every process this sweep starts carries it, wherever it is reparented
  const mark = `UDSVSTCP_TEST_MARK=${process.pid}-${Date.now()}`;
  const out = () => join(tmp.dir, 'out');
  beforeAll(async () => {
    tmp = await makeTempDir();
    const spec = await writeTinySpec(tmp.dir, { transports: TRANSPORTS, sizes: [64], runs: 2 });
    result = await runCli(['sweep', spec, '--test', '--no-probe', '--no-report', '--out', out()], { cwd: tmp.dir, env: { UDSVSTCP_TEST_MARK: mark.split('=')[1] } });
  }, 90_000);
  afterAll(() => tmp.remove());

  it('measures every transport in every run, all ok, and leaves no echo child', async () => {
    expect(result.code, result.stderr).toBe(0);
    const rows = await readTrialRows(out());
    expect(rows.map((r) => `${r.run} ${r.transport} ${r.status}`).sort()).toEqual(TRANSPORTS.flatMap((t) => [`0 ${t} ok`, `1 ${t} ok`]).sort());
    for (const r of rows) expect(Number(r.server_cpu_us_per_msg)).toBeGreaterThan(0);
    expect(processesWithEnvironment(mark)).toEqual([]);
  });

  it('writes a ratio row per message transport against TCP', async () => {
    const summary = parse(await readFile(join(out(), 'summary.csv'), 'utf8'), { columns: true });
    const ratios = summary.filter((/** @type {any} */ r) => r.metric === 'msgs_per_s' && r.unit === 'ratio').map((/** @type {any} */ r) => r.transport);
    expect(ratios).toEqual(['ipc-json/tcp', 'ipc-advanced/tcp', 'worker/tcp']);
  });
});
