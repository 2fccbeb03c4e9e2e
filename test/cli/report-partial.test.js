import { Writable } from 'node:stream';
import { mkdir, readFile, readdir, appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../lib/cli.js';
import { makeTempDir } from '../helpers/cli.js';
import { ENVIRONMENT, errorRow, okRow, writeResults } from '../helpers/results-fixture.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

/**
 * Run the command line in this process with collected streams.
 * @param {string[]} argv
 */
async function cli(argv) {
  let stdout = '';
  let stderr = '';
  const sink = (/** @type {(t: string) => void} */ add) => new Writable({ write(chunk, _encoding, done) { add(String(chunk)); done(); } });
  const code = await main(argv, { stdout: sink((t) => { stdout += t; }), stderr: sink((t) => { stderr += t; }), env: { NO_COLOR: '1' } });
  return { code, stdout, stderr };
}

/**
 * @param {string} name
 * @param {Record<string, any>[]} rows
 * @param {Record<string, any> | null} [meta]
 */
async function results(name, rows, meta) {
  const dir = join(tmp.dir, name);
  await mkdir(dir);
  await writeResults(dir, rows, meta);
  return dir;
}

const spec = { sizes: [64, 1024], depths: [1], transports: ['tcp', 'uds'], runs: 3 };
const REPORT_FILES = ['chart-cpu.svg', 'chart-msgs_per_s.svg', 'chart-rtt.svg', 'chart-uds-vs-tcp.svg', 'report.html', 'results.xlsx', 'summary.md'];

describe('report on what a partial, interrupted or failed sweep leaves', () => {
  it('reports an interrupted sweep with failed trials, and says how to complete it', async () => {
    const dir = await results('interrupted', [
      okRow(0, 'tcp', 64, 1, 10000), okRow(0, 'uds', 64, 1, 14000), okRow(1, 'tcp', 64, 1, 10500), okRow(1, 'uds', 64, 1, 14500),
      okRow(0, 'tcp', 1024, 1, 9000), errorRow(0, 'uds', 1024, 1, 'connect ECONNREFUSED'),
    ], { status: 'interrupted', trials_planned: 12, environment: ENVIRONMENT, spec });
    const { code, stderr } = await cli(['report', dir]);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('sweep interrupted: 6 trial rows of 12 planned, 5 ok, 1 failed');
    expect(stderr).toContain(`warning: the sweep was interrupted: 6 of 12 trial rows recorded; complete it with: npx udsvstcp sweep --resume ${dir}`);
    expect(stderr).toContain('warning: 1 of 6 trials failed (status=error in trials.csv): 1× "connect ECONNREFUSED"');
    expect(stderr).toContain('warning: no comparison where a transport has no successful trial: 1 KiB depth 1 (UDS)');
    expect(stderr).toMatch(/^depth 1: .*; no comparison at 1 KiB \(no run in which both transports succeeded\)\.$/m);
    expect((await readdir(dir)).filter((f) => REPORT_FILES.includes(f)).sort()).toEqual(REPORT_FILES);
  });

  it('reports a sweep that was killed mid-write (meta.json still "running", a torn last line)', async () => {
    const dir = await results('killed', [okRow(0, 'tcp', 64, 1, 10000), okRow(0, 'uds', 64, 1, 14000)], { status: 'running', environment: ENVIRONMENT, spec });
    await appendFile(join(dir, 'trials.csv'), '1,0,echo,tcp,64,1,1000,0.1');
    const { code, stderr } = await cli(['report', dir]);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('sweep not finished: 2 trial rows of 12 planned, 2 ok, 0 failed');
    expect(stderr).toContain('warning: the last line of trials.csv is incomplete');
    expect(stderr).toContain('warning: meta.json says the sweep is still running, or it was killed before it finished');
    // 3 runs planned, one measured: resume it, not --runs
    expect(stderr).toContain('depth 1: one run only at 64 B: UDS 1.40× TCP, no confidence interval (3 runs planned: the sweep stopped before the others; resume it, as said below).');
  });

  it('where a group has one run because the others failed, says to measure them again, not --runs', async () => {
    const dir = await results('one-left', [
      okRow(0, 'tcp', 64, 1, 10000), okRow(0, 'uds', 64, 1, 14000), okRow(1, 'tcp', 64, 1, 10500), errorRow(1, 'uds', 64, 1, 'boom'),
    ], { status: 'complete', environment: ENVIRONMENT, spec: { ...spec, sizes: [64] } });
    const { code, stderr } = await cli(['report', dir]);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`depth 1: one run only at 64 B: UDS 1.40× TCP, no confidence interval (3 runs planned, the others failed: npx udsvstcp sweep --resume ${dir} --retry-failed measures them again).`);
  });

  it('says so when every trial failed, and still writes every file', async () => {
    const dir = await results('all-failed', [errorRow(0, 'tcp', 64, 1, 'boom'), errorRow(0, 'uds', 64, 1, 'boom'), errorRow(1, 'tcp', 64, 1, 'trial exceeded its limit of 60 s')], { status: 'complete', environment: ENVIRONMENT, spec });
    const { code, stderr, stdout } = await cli(['report', dir, '--json']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('warning: every trial failed (3): 2× "boom", 1× "trial exceeded its limit of 60 s"');
    expect(stderr).toContain('depth 1: no comparison at 64 B (no run in which both transports succeeded).');
    expect(JSON.parse(stdout).trials).toEqual({ recorded: 3, ok: 0, failed: 3, planned: 12 });
    expect((await readdir(dir)).filter((f) => REPORT_FILES.includes(f)).sort()).toEqual(REPORT_FILES);
    expect(await readFile(join(dir, 'report.html'), 'utf8')).toContain('every trial failed');
  });

  it('says so when nothing was recorded, without meta.json too', async () => {
    const dir = await results('empty', [], null);
    const { code, stderr } = await cli(['report', dir]);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('sweep state unknown: 0 trial rows, 0 ok, 0 failed');
    expect(stderr).toContain('warning: no meta.json: the spec and environment of this sweep are unknown');
    expect(stderr).toContain('warning: no trials recorded: nothing to report');
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('No verdict: no trials recorded.');
    expect(await readFile(join(dir, 'summary.md'), 'utf8')).toContain('- no trials recorded: nothing to report');
  });
});

describe('compare on partial sweeps', () => {
  it('compares the groups both hold, leaving failed trials out, and names the groups only one holds', async () => {
    const a = await results('cmp-a', [okRow(0, 'tcp', 64, 1, 10000), okRow(0, 'uds', 64, 1, 14000), okRow(1, 'tcp', 64, 1, 10200), okRow(1, 'uds', 64, 1, 14100), errorRow(2, 'uds', 64, 1, 'boom'), okRow(0, 'tcp', 1024, 1, 9000)], { status: 'interrupted', environment: ENVIRONMENT });
    const b = await results('cmp-b', [okRow(0, 'tcp', 64, 1, 11000), okRow(0, 'uds', 64, 1, 14000), okRow(1, 'tcp', 64, 1, 11100), okRow(1, 'uds', 64, 1, 14200), okRow(0, 'tcp', 4096, 1, 7000)], { status: 'complete', environment: { ...ENVIRONMENT, node: '22.12.0' } });
    const { code, stderr, stdout } = await cli(['compare', a, b, '--json']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('\ndifferences:\n  node: A "20.20.2", B "22.12.0"\n');
    expect(stderr).toContain('warning: only in A: echo 1 KiB depth 1');
    expect(stderr).toContain('warning: only in B: echo 4 KiB depth 1');
    const rows = JSON.parse(stdout).rows.filter((/** @type {any} */ r) => r.metric === 'msgs_per_s');
    expect(rows.map((/** @type {any} */ r) => [r.size_bytes, r.transport, r.n_a, r.n_b])).toEqual([[64, 'tcp', 2, 2], [64, 'uds', 2, 2], [64, 'uds/tcp', 2, 2]]);
    expect(rows[0].ratio).toBeCloseTo(Math.sqrt((11000 * 11100) / (10000 * 10200)), 10);
  });

  it('refuses, naming what each holds, when the sweeps share no group (exit 2)', async () => {
    const a = await results('share-a', [okRow(0, 'tcp', 64, 1, 10000), okRow(0, 'uds', 64, 1, 14000)]);
    const b = await results('share-b', [okRow(0, 'tcp', 1024, 16, 10000), okRow(0, 'uds', 1024, 16, 14000)]);
    const { code, stderr, stdout } = await cli(['compare', a, b]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`udsvstcp: error: ${a} and ${b} share no (workload, size, depth) group: A has echo 64 B depth 1; B has echo 1 KiB depth 16\n`);
  });
});
