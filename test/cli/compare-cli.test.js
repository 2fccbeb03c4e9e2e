import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKLOADS } from '../../lib/workloads/index.js';
import { callMain, makeTempDir } from '../helpers/cli.js';
import { editMetaJson, okRow, sweepMeta, writeResults } from '../helpers/results-fixture.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

describe('udsvstcp compare on two results directories', () => {
  it('puts the shared groups side by side with B/A and its CI, table on stderr, rows as JSON on stdout', async () => {
    const a = join(tmp.dir, 'a');
    const b = join(tmp.dir, 'b');
    // two results directories as sweeps of seeds 1 and 2 leave them, made by hand: 64 B depth 1, 2 runs
    for (const [dir, seed, tcp, uds] of /** @type {const} */ ([[a, 1, [10000, 10600], [13000, 13500]], [b, 2, [10300, 10900], [12400, 13300]]])) {
      await mkdir(dir);
      const rows = [0, 1].flatMap((run) => [okRow(run, 'tcp', 64, 1, tcp[run]), okRow(run, 'uds', 64, 1, uds[run])]);
      // every figure of the workload a number, as a sweep records them
      const complete = rows.map((row, k) => ({ ...Object.fromEntries(Object.keys(WORKLOADS.echo.summary).map((m) => [m, 1 + k / 10])), ...Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null && v !== undefined)), node_version: process.version }));
      await writeResults(dir, complete, sweepMeta({ sizes: [64], depths: [1], runs: 2 }, { seed }));
      await editMetaJson(dir, (meta) => { meta.spec.seed = seed; });
    }
    const result = await callMain(['compare', a, b, '--json']);
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
