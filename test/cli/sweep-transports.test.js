/**
 * A sweep of three transports: every trial measures TCP, UDS and the
 * abstract socket in one process, and every file holds all three, with a
 * ratio row per transport against TCP.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMain, makeTempDir } from '../helpers/cli.js';
import { readTrialRows, writeTinySpec } from '../helpers/sweeps.js';

const linux = process.platform === 'linux';

describe.skipIf(!linux)('sweep with transports tcp, uds, uds-abstract', () => {
  /** @type {{ dir: string, remove: () => Promise<void> }} */
  let tmp;
  /** @type {Awaited<ReturnType<typeof callMain>>} */
  let result;
  const out = () => join(tmp.dir, 'out');
  beforeAll(async () => {
    tmp = await makeTempDir();
    const spec = await writeTinySpec(tmp.dir, { transports: ['tcp', 'uds', 'uds-abstract'], sizes: [64], runs: 2 });
    result = await callMain(['sweep', spec, '--test', '--no-probe', '--out', out()]);
  }, 60_000);
  afterAll(() => tmp.remove());

  it('measures every transport in every run, all ok', async () => {
    expect(result.code, result.stderr).toBe(0);
    const rows = await readTrialRows(out());
    expect(rows.map((r) => `${r.run} ${r.transport} ${r.status}`).sort()).toEqual(['0 tcp ok', '0 uds ok', '0 uds-abstract ok', '1 tcp ok', '1 uds ok', '1 uds-abstract ok']);
    const blocks = parse(await readFile(join(out(), 'blocks.csv'), 'utf8'), { columns: true });
    expect(new Set(blocks.map((/** @type {any} */ b) => b.transport))).toEqual(new Set(['tcp', 'uds', 'uds-abstract']));
  });

  it('writes a ratio row per transport against TCP in summary.csv, and prints both', async () => {
    const summary = parse(await readFile(join(out(), 'summary.csv'), 'utf8'), { columns: true });
    const ratios = summary.filter((/** @type {any} */ r) => r.metric === 'msgs_per_s' && r.unit === 'ratio').map((/** @type {any} */ r) => r.transport);
    expect(ratios).toEqual(['uds/tcp', 'uds-abstract/tcp']);
    expect(result.stderr).toContain('UDS/TCP msgs/s');
    expect(result.stderr).toContain('UDS abstract/TCP msgs/s');
    const wide = await readFile(join(out(), 'runs-wide.csv'), 'utf8');
    expect(wide).toContain('UDS-ABSTRACT Size 64');
    expect(result.stderr).toContain(join(out(), 'chart-uds-abstract-vs-tcp.svg'));
  });
});
