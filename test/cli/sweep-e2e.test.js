import { existsSync } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getWorkload } from '../../lib/workloads/index.js';
import { listPresets, loadSpec, resolveSpec } from '../../lib/sweep/spec.js';
import { makeTempDir, runCli } from '../helpers/cli.js';
import { expectPinnedHeaders } from '../helpers/schema.js';
import { readXlsx } from '../helpers/xlsx.js';

const KEYS = JSON.parse(await readFile(new URL('../fixtures/machine-keys.json', import.meta.url), 'utf8'));

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

/** @param {string} text @returns {Record<string, any>[]} */
const parseCsv = (text) => parse(text, { columns: true });

/** @param {string} preset the preset's workload declaration */
const workloadOf = (preset) => getWorkload(resolveSpec(loadSpec(preset), { test: true }).workload);

/**
 * The presets that put the server in a network namespace (serverNetns) run in
 * test/cli/server-netns.test.js instead, one after another: every such sweep
 * first removes the networks of any sweep that was killed, so run beside this
 * file's it would remove the one that test kills before its --resume looks.
 */
const PRESETS = listPresets().filter((preset) => !loadSpec(preset).raw.serverNetns);

/**
 * How each preset's one sweep runs. All skip the wake-up probe (sweep-machine
 * tests it) but the one without taskset, where it cannot run and says why.
 * Three presets also carry a behaviour of their own, asserted below the
 * per-preset tests, so that no extra sweep is needed for it: quick asks for a
 * precision it cannot reach before --max-time, nicmcd-2014 pins both ends to
 * one CPU, and eliben-2019-latency asks for --pin split on a PATH without
 * taskset.
 */
const SPLIT = 'split: server cpu 0, client cpu 1';
/** @type {Record<string, { args: string[], seed: number, pinning: string, env?: NodeJS.ProcessEnv }>} */
const RUNS = Object.fromEntries(PRESETS.map((preset) => [preset, { args: ['--no-probe'], seed: 11, pinning: SPLIT }]));
Object.assign(RUNS, {
  quick: { args: ['--no-probe', '--precision', '0.1%', '--max-time', '20s'], seed: 4, pinning: SPLIT },
  'nicmcd-2014': { args: ['--no-probe', '--pin', 'same'], seed: 11, pinning: 'same: server and client cpu 0' },
  'eliben-2019-latency': { args: ['--pin', 'split'], seed: 11, pinning: 'none', env: { PATH: '/nonexistent-udsvstcp-test' } },
});
/** @type {Map<string, Awaited<ReturnType<typeof runCli>>>} each preset's sweep, for the tests of its own behaviour */
const SWEPT = new Map();
/** @param {string} preset */
const sweptDir = (preset) => join(tmp.dir, preset);
/** @param {string} preset */
function swept(preset) {
  const result = SWEPT.get(preset);
  if (!result) throw new Error(`the ${preset} sweep did not run (its describe block was skipped)`);
  return result;
}

describe.each(PRESETS)('sweep %s --test, end to end with real processes', (preset) => {
  const out = () => sweptDir(preset);
  const { args, seed, pinning, env } = RUNS[preset];
  /** @type {Awaited<ReturnType<typeof runCli>>} */
  let result;
  beforeAll(async () => {
    result = await runCli(['sweep', preset, '--test', '--seed', String(seed), ...args, '--out', out()], { cwd: tmp.dir, env });
    SWEPT.set(preset, result);
  }, 90_000);

  it('exits 0 and prints the summary, the verdicts and every file it wrote on stderr, only the results directory on stdout', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${out()}\n`);
    const w = workloadOf(preset);
    expect(result.stderr).toContain(`UDS/TCP ${w.summary[w.primary].unit}`);
    for (const file of ['trials.csv', 'blocks.csv', 'summary.csv', 'runs-wide.csv', 'meta.json', 'summary.md', 'report.html', 'results.xlsx', 'chart-uds-vs-tcp.svg']) expect(result.stderr).toContain(join(out(), file));
    // the proxy workload writes its nginx config beside the results, and only it
    expect(existsSync(join(out(), 'nginx.conf'))).toBe(w.fixture.proxy);
  });

  it("draws and tabulates the workload's own figures: CPU per its unit, and its p50/p99 times where it has them", async () => {
    const w = workloadOf(preset);
    const cpuUnit = Object.entries(w.summary).find(([m]) => m.startsWith('client_cpu_'))?.[1].unit.replace(/^us/, 'µs');
    const cpuSvg = await readFile(join(out(), 'chart-cpu.svg'), 'utf8');
    expect(cpuSvg).toContain(`CPU ${cpuUnit}`);
    expect(cpuSvg).toContain(w.axes.size.label);
    expect(cpuSvg).toMatch(/<path[^>]* d="M/); // lines drawn, not an empty panel
    expect(await readFile(join(out(), 'summary.md'), 'utf8')).toContain(`| client CPU TCP (${cpuUnit}) |`);
    // results.xlsx: the count and the primary figure are numbers, formatted for what they are
    const sheet = (await readXlsx(join(out(), 'results.xlsx'))).sheet('trials');
    const header = /** @type {string[]} */ (sheet.values(1));
    const count = sheet.cell(2, header.indexOf(w.columns[0]) + 1);
    const primary = sheet.cell(2, header.indexOf(w.primary) + 1);
    expect([typeof count.value, count.numFmt]).toEqual(['number', '0']);
    expect([typeof primary.value, primary.numFmt]).toEqual(['number', w.primary === 'gb_per_s' ? '0.000' : '#,##0']);
    const times = Object.keys(w.summary).some((m) => m.endsWith('_p50_us'));
    expect(existsSync(join(out(), 'chart-rtt.svg'))).toBe(times);
  });

  it('writes trials.csv, blocks.csv, summary.csv and runs-wide.csv with the header lines test/fixtures/schema pins', async () => {
    await expectPinnedHeaders(out(), workloadOf(preset).name);
  });

  it('writes trials.csv: one row per planned trial, numeric cells', async () => {
    const spec = resolveSpec(loadSpec(preset), { test: true });
    const text = await readFile(join(out(), 'trials.csv'), 'utf8');
    const rows = parseCsv(text);
    const w = getWorkload(spec.workload);
    const meta = JSON.parse(await readFile(join(out(), 'meta.json'), 'utf8'));
    expect(rows).toHaveLength(spec.runs * spec.sizes.length * spec.depths.length * spec.transports.length + meta.extra_trial_rows);
    expect(meta.trials_recorded).toBe(rows.length);
    for (const row of rows) {
      expect(row.status, row.error).toBe('ok');
      for (const key of ['run', 'order', 'size_bytes', 'depth', ...w.columns]) {
        if (key === 'proxy_cpu_us_per_req' && row[key] === '0') continue;
        expect(row[key], key).toMatch(/^-?\d+(\.\d+)?$/); // never exponent notation
      }
    }
  });

  it('writes summary.csv with statistics per size, depth and transport, and UDS/TCP ratios', async () => {
    const rows = parseCsv(await readFile(join(out(), 'summary.csv'), 'utf8'));
    expect(rows.map((/** @type {any} */ r) => r.transport)).toEqual(expect.arrayContaining(['tcp', 'uds', 'uds/tcp']));
    expect(rows.find((/** @type {any} */ r) => r.transport === 'uds/tcp' && r.metric === workloadOf(preset).primary)?.mean).toMatch(/^\d+(\.\d+)?$/);
  });

  it('writes runs-wide.csv in the 2014 layout (the primary figure for other workloads)', async () => {
    const spec = resolveSpec(loadSpec(preset), { test: true });
    const lines = (await readFile(join(out(), 'runs-wide.csv'), 'utf8')).trim().split('\n');
    const runs = new Set(parseCsv(await readFile(join(out(), 'trials.csv'), 'utf8')).map((/** @type {any} */ r) => r.run)).size; // planned, and any added for the precision
    expect(runs).toBeGreaterThanOrEqual(spec.runs);
    expect(lines[0].split(',').slice(1)).toEqual(Array.from({ length: runs }, (_, i) => `RUN ${i}`)); // its NAME cell: the fixture's
    const names = lines.slice(1).map((l) => l.split(',')[0]);
    const suffix = spec.depths.length > 1 ? spec.depths.map((d) => ` Depth ${d}`) : [''];
    const expected = ['UDS', 'TCP'].flatMap((t) => suffix.flatMap((d) => spec.sizes.map((s) => `${t} Size ${s}${d}`)));
    expect(names).toEqual(expected);
    // every planned run has a figure; a run added for the precision only where its group got one
    for (const line of lines.slice(1)) {
      const cells = line.split(',').slice(1);
      for (const cell of cells.slice(0, spec.runs)) expect(Number(cell)).toBeGreaterThan(0);
      for (const cell of cells.slice(spec.runs)) expect(cell === '' || Number(cell) > 0).toBe(true);
    }
  });

  it('writes blocks.csv: every measured block of every trial, in pairs of both transports', async () => {
    const spec = resolveSpec(loadSpec(preset), { test: true });
    const trials = parseCsv(await readFile(join(out(), 'trials.csv'), 'utf8'));
    const blocks = parseCsv(await readFile(join(out(), 'blocks.csv'), 'utf8'));
    const w = getWorkload(spec.workload);
    const units = w.blockColumns[0]; // packets, chunks, connections, requests: a trial row's first figure too
    expect(w.columns[0]).toBe(units);
    const serverCpu = /** @type {string} */ (w.blockColumns.find((c) => c.startsWith('server_cpu_')));
    for (const trial of trials) {
      const mine = blocks.filter((/** @type {any} */ b) => b.run === trial.run && b.size_bytes === trial.size_bytes && b.depth === trial.depth && b.transport === trial.transport);
      expect(mine).toHaveLength(Number(trial.blocks));
      expect(mine.reduce((n, /** @type {any} */ b) => n + Number(b[units]), 0)).toBe(Number(trial[units]));
      // each cell holds 9 significant digits: the sum may differ by that rounding, no more
      const elapsed = mine.reduce((n, /** @type {any} */ b) => n + Number(b.elapsed_ms), 0);
      expect(Math.abs(elapsed - Number(trial.elapsed_ms))).toBeLessThanOrEqual(Number(trial.elapsed_ms) * 5e-9 * (mine.length + 1));
      for (const b of mine) expect(Number(b[serverCpu]), 'server CPU of every block').toBeGreaterThan(0);
    }
    if (spec.pairing === 'blocks') {
      /** @type {Map<string, any[]>} */
      const byTrial = new Map();
      for (const b of blocks) byTrial.set(`${b.run}|${b.size_bytes}|${b.depth}`, [...(byTrial.get(`${b.run}|${b.size_bytes}|${b.depth}`) ?? []), b]);
      for (const list of byTrial.values()) {
        for (let k = 0; k + 1 < list.length; k += 2) expect(new Set([list[k].transport, list[k + 1].transport]).size).toBe(2);
      }
    }
  });

  it('writes meta.json with the spec, seed, design, times and environment', async () => {
    const meta = JSON.parse(await readFile(join(out(), 'meta.json'), 'utf8'));
    expect(meta.design).toMatchObject({ block_ms_target: 10, pairing: expect.any(String), ratio_interval: expect.stringMatching(/Student-t/) });
    expect(meta).toMatchObject({ status: 'complete', seed, spec: { preset, test: true, seed }, no_delay: expect.any(Boolean), pinning });
    expect(meta.sessions[0].pinning).toBe(pinning);
    expect(meta.environment).toMatchObject({ node: process.versions.node, libuv: process.versions.uv, cpu_count: expect.any(Number), os_release: expect.any(String) });
    expect(Date.parse(meta.ended_at)).toBeGreaterThanOrEqual(Date.parse(meta.started_at));
    expect(meta.loadavg_start).toHaveLength(3);
    expect(meta.loadavg_end).toHaveLength(3);
  });
});

describe('sweep --pin (on the presets swept above)', () => {
  it('without taskset, runs unpinned, says so, and records it (and no wake-up probe, with the reason)', async () => {
    const { code, stderr } = swept('eliben-2019-latency');
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('note: --pin split: taskset not found (Linux util-linux); running unpinned');
    const meta = JSON.parse(await readFile(join(sweptDir('eliben-2019-latency'), 'meta.json'), 'utf8'));
    expect(meta.sessions[0].pinning).toBe('none');
    expect(meta.machine).toMatchObject({ wakeup: null, wakeup_note: 'taskset not found (Linux util-linux): no pinning, so no wake-up probe' });
    expect(meta.machine.virtualisation.vm).toBeNull(); // systemd-detect-virt is not on that PATH either
    expect(stderr).toContain('wake-up probe: none (taskset not found (Linux util-linux): no pinning, so no wake-up probe)');
  });

  it('with taskset, records where server and client ran', async () => {
    expect(swept('nicmcd-2014').code).toBe(0);
    expect(JSON.parse(await readFile(join(sweptDir('nicmcd-2014'), 'meta.json'), 'utf8')).sessions[0].pinning).toBe('same: server and client cpu 0');
  });
});

describe('sweep --no-probe (on the default sweep above)', () => {
  it('skips the probe and says so', async () => {
    const { code, stderr } = swept('default');
    expect(code, stderr).toBe(0);
    const { machine } = JSON.parse(await readFile(join(sweptDir('default'), 'meta.json'), 'utf8'));
    expect(machine).toMatchObject({ wakeup: null, wakeup_note: 'not run (--no-probe)' });
    expect(Object.keys(machine.sysctl).sort()).toEqual(KEYS.sysctl);
    expect(stderr).toContain('wake-up probe: none (not run (--no-probe))');
  });

  it('prints a verdict for each depth after the summary', () => {
    const { code, stderr } = swept('default');
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/^depth 1: .+\.$/m);
    expect(stderr).toMatch(/^depth 4: .+\.$/m);
  });
});

describe('sweep --precision (on the quick sweep above)', () => {
  it('adds runs to the groups whose UDS/TCP interval is wider than asked, stops at --max-time, and marks them', async () => {
    const out = sweptDir('quick');
    const { code, stderr } = swept('quick');
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/precision round 1: 1 group\(s\) wider than ±0\.1 %, widest 64 B depth 1 ±[\d.]+ %; one more run for the 1 that gain most from one/);
    expect(stderr).toMatch(/--max-time 20 s reached: 1 group\(s\) short of ±0\.1 %/);
    const meta = JSON.parse(await readFile(join(out, 'meta.json'), 'utf8'));
    expect(meta.extra_trial_rows).toBeGreaterThan(0);
    expect(meta.max_time_reached).toBe(true);
    const rows = parseCsv(await readFile(join(out, 'trials.csv'), 'utf8'));
    expect(rows).toHaveLength(4 + meta.extra_trial_rows);
    expect(new Set(rows.map((/** @type {any} */ r) => r.run)).size).toBe(2 + meta.extra_trial_rows / 2);
    const ratio = parseCsv(await readFile(join(out, 'summary.csv'), 'utf8')).find((/** @type {any} */ r) => r.transport === 'uds/tcp' && r.metric === 'msgs_per_s');
    expect(ratio).toMatchObject({ unit: 'ratio', precision_met: 'no', n: String(2 + meta.extra_trial_rows / 2) });
    // the 2014 layout has a column for every run, the added ones too
    const header = (await readFile(join(out, 'runs-wide.csv'), 'utf8')).split('\n')[0].split(',');
    expect(header).toHaveLength(1 + 2 + meta.extra_trial_rows / 2);
    expect(stderr).toMatch(/! short of the target: 1 of 1 UDS\/TCP intervals are wider than ±0\.1 %/);
  });
});

describe('sweep faults', () => {
  it('a trial that passes its time limit becomes an error row and the sweep goes on', async () => {
    const out = join(tmp.dir, 'slow');
    const spec = join(tmp.dir, 'slow.json');
    await import('node:fs/promises').then((fs) => fs.writeFile(spec, JSON.stringify({ sizes: [65536, 64], depths: [1], transports: ['uds'], runs: 1, packets: 20000000, warmup: 0, trialTimeout: '400ms', seed: 3, test: {} })));
    const { code, stderr } = await runCli(['sweep', spec, '--no-probe', '--out', out]);
    expect(code, stderr).toBe(1);
    const rows = parseCsv(await readFile(join(out, 'trials.csv'), 'utf8'));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.status).toBe('error');
      expect(row.error).toMatch(/^trial exceeded its limit of 0\.4 s/);
    }
    expect(stderr).toMatch(/2 failed/);
  });

  it('Ctrl-C keeps valid partial files and removes the socket; --resume completes them', async () => {
    const out = join(tmp.dir, 'interrupted');
    const { spawn } = await import('node:child_process');
    const { BIN } = await import('../helpers/cli.js');
    const args = ['sweep', 'quick', '--sizes', '64,1024', '--depths', '1', '--runs', '3', '--packets', '1000', '--warmup', '0', '--seed', '5', '--no-probe', '--out', out];
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (t) => {
      stderr += t;
      if (/\[2\/6\]/.test(stderr) && !child.killed) child.kill('SIGINT');
    });
    const code = await new Promise((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code, stderr).toBe(130);
    expect(stderr).toContain(`npx udsvstcp sweep --resume ${out}`);
    const partial = parseCsv(await readFile(join(out, 'trials.csv'), 'utf8'));
    expect(partial.length).toBeGreaterThanOrEqual(2);
    expect(partial.length % 2).toBe(0); // a trial's two rows go in together
    expect(partial.length).toBeLessThan(12);
    const meta = JSON.parse(await readFile(join(out, 'meta.json'), 'utf8'));
    expect(meta.status).toBe('interrupted');
    const sockets = stderr.match(/uds (\/\S+\.sock)/g) ?? [];
    expect(sockets.length).toBeGreaterThanOrEqual(1);
    for (const socket of sockets) await expect(lstat(socket.slice(4))).rejects.toThrow(/ENOENT/);

    const resumed = await runCli(['sweep', '--resume', out, '--no-probe']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`resuming: ${partial.length} trial rows already there`);
    const rows = parseCsv(await readFile(join(out, 'trials.csv'), 'utf8'));
    expect(rows).toHaveLength(12);
    expect(new Set(rows.map((/** @type {any} */ r) => `${r.run}|${r.size_bytes}|${r.transport}`)).size).toBe(12);
    expect(rows.slice(0, partial.length)).toEqual(partial);
    expect(JSON.parse(await readFile(join(out, 'meta.json'), 'utf8')).status).toBe('complete');
  }, 90_000);
});
