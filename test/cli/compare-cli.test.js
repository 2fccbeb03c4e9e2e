import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKLOADS } from '../../lib/workloads/index.js';
import { makeTempDir, runCli } from '../helpers/cli.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

describe('udsvstcp compare on two real sweeps', () => {
  it('puts the shared groups side by side with B/A and its CI, table on stderr, rows as JSON on stdout', async () => {
    const a = join(tmp.dir, 'a');
    const b = join(tmp.dir, 'b');
    for (const [dir, seed] of [[a, '1'], [b, '2']]) {
      const sweep = await runCli(['sweep', 'quick', '--test', '--seed', seed, '--no-probe', '--out', dir, '--quiet']);
      expect(sweep.code, sweep.stderr).toBe(0);
    }
    const result = await runCli(['compare', a, b, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`A = ${a}\nB = ${b}\n`);
    expect(result.stderr).toContain('differences: seed: A 1, B 2');
    expect(result.stderr).toMatch(/^depth {2}size {2}transport {2}A msgs\/s {2}B msgs\/s +B\/A {2}95 % CI +sig {2}runs A\/B$/m);
    for (const transport of ['TCP', 'UDS', 'UDS/TCP']) expect(result.stderr).toMatch(new RegExp(`^ +1  64 B  ${transport} +\\S+ +\\S+ +\\d+\\.\\d{3}  \\d+\\.\\d{3}–\\d+\\.\\d{3} .* 2/2$`, 'm'));
    const json = JSON.parse(result.stdout);
    expect(json.statistic).toMatch(/Welch/);
    const figures = Object.entries(WORKLOADS.echo.summary);
    // every figure × TCP, UDS, UDS/TCP, one group; a mechanism figure's ratio row is left out where it was 0 in
    // every run of A or B (with both ends pinned, a client may never be preempted: no ratio of 0 to 0)
    const rowsOf = (/** @type {string} */ metric) => json.rows.filter((/** @type {any} */ r) => r.metric === metric).map((/** @type {any} */ r) => r.transport).sort();
    for (const [metric, figure] of figures) {
      if (figure.mechanism) expect(['tcp', 'uds', 'uds/tcp']).toEqual(expect.arrayContaining(rowsOf(metric)));
      else expect(rowsOf(metric), metric).toEqual(['tcp', 'uds', 'uds/tcp']);
    }
    expect(new Set(json.rows.map((/** @type {any} */ r) => r.metric))).toEqual(new Set(figures.map(([m]) => m)));
    // the mechanism figures are counts that can be 0 in a run (no geometric mean then): the others are always numbers
    for (const row of json.rows.filter((/** @type {any} */ r) => !WORKLOADS.echo.summary[r.metric].mechanism)) {
      for (const key of ['a', 'b', 'ratio', 'ci95_low', 'ci95_high']) expect(typeof row[key], `${row.metric} ${row.transport} ${key}`).toBe('number');
    }
  }, 60_000);
});
