import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCsv } from '../../lib/results/csv.js';
import { trialColumns } from '../../lib/results/writer.js';
import { createRecord } from '../../lib/trial/record.js';
import { WORKLOADS } from '../../lib/workloads/index.js';
import { callMain, expectOneLineUsageError, makeTempDir } from '../helpers/cli.js';
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
    expect(result.stderr).toContain('\ndifferences:\n  seed: A 1, B 2\n\n');
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

  it('lists every spec key that differs, the preset first, and whether the server ran in a real Docker container', async () => {
    // as myhro-2017-nginx and myhro-2017-docker leave them: one shared group, other presets and servers
    const [a, b] = [join(tmp.dir, 'nginx'), join(tmp.dir, 'docker')];
    const rows = [0, 1].flatMap((run) => [okRow(run, 'tcp', 64, 10, 1000 + run), okRow(run, 'uds', 64, 10, 1200 + run)]);
    await mkdir(a);
    await writeResults(a, rows, sweepMeta({ sizes: [64], depths: [10], runs: 2 }, { design: { primary: 'msgs_per_s' } }));
    await editMetaJson(a, (meta) => Object.assign(meta.spec, { preset: 'myhro-2017-nginx', description: 'nginx in front', serverDocker: false }));
    await mkdir(b);
    await writeResults(b, rows, sweepMeta({ sizes: [64, 1024], depths: [10], runs: 3 }, { design: { primary: 'msgs_per_s', docker: 'real (Docker 27.1.1, the server in a container)' } }));
    await editMetaJson(b, (meta) => Object.assign(meta.spec, { preset: 'myhro-2017-docker', description: 'nginx in front of a container', serverNetns: true, portProxy: true, serverDocker: true, keepalive: true, measure: { ms: 5000 } }));
    const { code, stderr } = await callMain(['compare', a, b]);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`\ndifferences:\n${[
      'preset: A "myhro-2017-nginx", B "myhro-2017-docker"',
      'sizes: A [64], B [64,1024]',
      'runs: A 2, B 3',
      'measure: A {"packets":100}, B {"ms":5000}',
      'keepalive: A false, B true',
      'serverNetns: A false, B true',
      'portProxy: A false, B true',
      'serverDocker: A false, B true',
      'server in Docker: A no, B real (Docker 27.1.1, the server in a container)',
    ].map((line) => `  ${line}\n`).join('')}\n`);
    // the preset's prose differs with the preset: not a difference of its own
    expect(stderr).not.toContain('description');
  });

  it("refuses a chained preset's directory in one line, naming its parts' directories to compare instead (exit 2)", async () => {
    const chain = join(tmp.dir, 'lul');
    await mkdir(chain);
    const parts = [{ name: 'echo', preset: 'echo-under-load', dir: 'echo', status: 'complete' }, { name: 'http', preset: 'http-under-load', dir: 'http', status: 'complete' }];
    await writeFile(join(chain, 'chain.json'), `${JSON.stringify({ udsvstcp: '0.6.0', preset: 'latency-under-load', description: 'two sweeps', test: true, flags: {}, status: 'complete', parts }, null, 2)}\n`);
    const rows = [okRow(0, 'tcp', 64, 1, 1000), okRow(0, 'uds', 64, 1, 1200)];
    for (const part of parts) {
      await mkdir(join(chain, part.dir));
      await writeResults(join(chain, part.dir), rows, sweepMeta({ sizes: [64], depths: [1], runs: 1 }));
    }
    const single = join(tmp.dir, 'single');
    await mkdir(single);
    await writeResults(single, rows, sweepMeta({ sizes: [64], depths: [1], runs: 1 }));
    expectOneLineUsageError(await callMain(['compare', chain, single]),
      `${chain} is the directory of the chained preset latency-under-load, not of one sweep: compare one of its parts' directories instead: ${join(chain, 'echo')} (echo-under-load), ${join(chain, 'http')} (http-under-load)`);
    expectOneLineUsageError(await callMain(['compare', single, chain]), `${chain} is the directory of the chained preset latency-under-load`);
    expectOneLineUsageError(await callMain(['compare', chain, chain]),
      `compare them part by part: udsvstcp compare ${join(chain, 'echo')} ${join(chain, 'echo')}; udsvstcp compare ${join(chain, 'http')} ${join(chain, 'http')}`);
  });

  it("labels an open-loop sweep's groups by rate, as the rest of the report does", async () => {
    /** trials.csv of a rate sweep: 64 B at the rates given, 2 runs, the p99 response time in µs */
    const rateResults = async (/** @type {string} */ dir, /** @type {number[]} */ rates) => {
      await mkdir(dir);
      const rows = [0, 1].flatMap((run) => rates.flatMap((rate) => ['tcp', 'uds'].map((transport, k) => ({
        run, order: 0,
        ...createRecord({ workload: 'rate', node_version: process.version, transport, size_bytes: 64, depth: rate, requests: rate, rate_target: rate, rate_sent: rate, rate_completed: rate, resp_p50_us: 30 + k + run, resp_p99_us: 60 + k + run, svc_p99_us: 50 + k + run }),
      }))));
      await writeFile(join(dir, 'trials.csv'), toCsv(rows, trialColumns('rate')));
      await writeFile(join(dir, 'meta.json'), `${JSON.stringify(sweepMeta({ sizes: [64], depths: rates, runs: 2 }, { spec: { ...sweepMeta({ sizes: [64], depths: rates, runs: 2 }).spec, workload: 'rate' } }), null, 2)}\n`);
    };
    const [a, b] = [join(tmp.dir, 'rate-a'), join(tmp.dir, 'rate-b')];
    await rateResults(a, [1000, 2000]);
    await rateResults(b, [1000]);
    const { code, stderr } = await callMain(['compare', a, b, '--figure', 'resp_p99_us']);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/^rate {2}size {2}transport {2}A resp p99 µs/m);
    expect(stderr).toMatch(/^1000 {2}64 B {2}TCP /m);
    expect(stderr).toContain('warning: only in A: rate 64 B rate 2000');
    expect(stderr).not.toMatch(/\bdepth\b/);
  });
});
