/**
 * One real `sweep PRESET --test` per preset, and the tests every preset's
 * sweep must pass (exit, files, schemas, figures). Test files call
 * describePresetSweeps with their share of the presets, so the sweeps run in
 * two vitest workers at once.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { getWorkload, outsideServer } from '../../lib/workloads/index.js';
import { listPresets, loadSpec, resolveSpec } from '../../lib/sweep/spec.js';
import { isChained } from '../../lib/sweep/chain.js';
import { findKnees } from '../../lib/stats/knees.js';
import { callMain } from './cli.js';
import { expectPinnedHeaders } from './schema.js';
import { readXlsx } from './xlsx.js';

/** @param {string} text @returns {Record<string, any>[]} */
const parseCsv = (text) => parse(text, { columns: true });

/** @param {string} preset the preset's workload declaration */
const workloadOf = (preset) => getWorkload(resolveSpec(loadSpec(preset), { test: true }).workload);

/**
 * The presets that put the server in a network namespace (serverNetns) run in
 * test/cli/server-netns.test.js instead, one after another: every such sweep
 * first removes the networks of any sweep that was killed, so run beside
 * these it would remove the one that test kills before its --resume looks.
 */
export const PRESETS = listPresets().filter((preset) => !isChained(loadSpec(preset)) && !loadSpec(preset).raw.serverNetns);

/** The chained presets (a sweep of each part in turn): test/cli/sweep-e2e-open.test.js sweeps them. */
export const CHAINS = listPresets().filter((preset) => isChained(loadSpec(preset)));

/**
 * A chain's stderr: what it printed under the header of its part `part`, up to the next part's.
 * @param {string} stderr
 * @param {string} part
 */
export function partSection(stderr, part) {
  const start = stderr.search(new RegExp(`^== part ${part} `, 'm'));
  if (start < 0) return '';
  const next = stderr.slice(start + 1).search(/^== part /m);
  return next < 0 ? stderr.slice(start) : stderr.slice(start, start + 1 + next);
}

/** The open-loop presets (their rows say whether they kept their rate): test/cli/sweep-e2e-open.test.js sweeps them. */
export const OPEN = PRESETS.filter((preset) => workloadOf(preset).columns.includes('limit'));

/** The presets of a server not ours (redis, postgres): test/cli/sweep-e2e-servers.test.js sweeps them. */
export const OUTSIDE = PRESETS.filter((preset) => outsideServer(workloadOf(preset)) !== undefined);

/**
 * @typedef {{ args: string[], seed: number, pinning: string, env?: Record<string, string>, timeoutMs?: number, flags?: Record<string, string>, report?: boolean, chain?: PartOfChain }} PresetRun
 *   how a preset's one sweep runs (timeoutMs: its limit, default 60 s; flags: design flags given on the command line,
 *   such as { depths: '1' } for a smaller sweep, which the planned trials, rows and columns tested here follow;
 *   report: false sweeps with --no-report, for a preset whose workload's report another preset's sweep checks, as
 *   drawing the charts costs each sweep over a second of CPU; see reportCovered; chain: the preset is swept as a part
 *   of a chained preset's sweep, not alone, and tested in it: args, seed and pinning are that sweep's)
 */

/**
 * @typedef {object} PartOfChain a preset swept as a part of a chain
 * @property {string} part its name in the chain: its results are in dir()/part, its stderr under its header
 * @property {() => string} dir the chain's results directory (what the chain's sweep prints on stdout)
 * @property {() => Promise<Awaited<ReturnType<typeof callMain>>>} sweep the chain's sweep (or the resume that completed it)
 */

/**
 * The groups (size|depth) a summary compares UDS with TCP in: those with a
 * run where both succeeded and, in open loop, both kept the rate (a row that
 * missed it is left out of the summary: docs/openloop.md).
 * @param {string} dir
 */
async function comparedGroups(dir) {
  const rows = parseCsv(await readFile(join(dir, 'trials.csv'), 'utf8'));
  const kept = rows.filter((r) => r.status === 'ok' && (r.limit === undefined || r.limit === 'none'));
  const key = (/** @type {Record<string, any>} */ r) => `${r.size_bytes}|${r.depth}`;
  const has = (/** @type {string} */ t) => new Set(kept.filter((r) => r.transport === t).map((r) => `${key(r)}|${r.run}`));
  const tcp = has('tcp');
  return { all: new Set(rows.map(key)), compared: new Set([...has('uds')].filter((k) => tcp.has(k)).map((k) => k.split('|').slice(0, 2).join('|'))) };
}

/**
 * The presets swept with report: false whose workload no preset swept with its report has (the report's
 * figures, charts and cells follow the workload, so one preset per workload checks them): should be none.
 * @param {string[]} presets
 * @param {Record<string, PresetRun>} runs
 */
export function reportUncovered(presets, runs) {
  const reported = new Set(presets.filter((preset) => runs[preset]?.report !== false).map((preset) => workloadOf(preset).name));
  return presets.filter((preset) => runs[preset]?.report === false && !reported.has(workloadOf(preset).name));
}

/** The pinning meta.json records for --pin split, the default. */
export const SPLIT = 'split: server cpu 0, client cpu 1';

/**
 * The presets test/cli/sweep-e2e.test.js sweeps, each also carrying a
 * behaviour asserted there; test/cli/sweep-e2e-more.test.js sweeps the rest. All four are of the echo
 * workload, so default's report (two depths: the richest) stands for the others', swept with --no-report.
 * @type {Record<string, PresetRun>}
 */
export const OWN = {
  default: { args: ['--no-probe'], seed: 11, pinning: SPLIT },
  quick: { args: ['--no-probe', '--precision', '0.1%', '--max-time', '6s'], seed: 4, pinning: SPLIT, report: false },
  'nicmcd-2014': { args: ['--no-probe', '--pin', 'same'], seed: 11, pinning: 'same: server and client cpu 0', report: false },
  'eliben-2019-latency': { args: ['--pin', 'split'], seed: 11, pinning: 'none', env: { PATH: '/nonexistent-udsvstcp-test' }, report: false },
};

/**
 * @param {string[]} presets
 * @param {{ dir: () => string, runs?: Record<string, PresetRun> }} options dir: where each preset's results go
 *   (called once the temp dir exists); runs: presets swept otherwise than with --no-probe, seed 11, pinned split
 * @returns {{ swept: (preset: string) => Awaited<ReturnType<typeof callMain>>, sweptDir: (preset: string) => string }}
 */
export function describePresetSweeps(presets, { dir, runs = {} }) {
  /** @type {Map<string, Awaited<ReturnType<typeof callMain>>>} each preset's sweep, for the tests of its own behaviour */
  const SWEPT = new Map();
  const sweptDir = (/** @type {string} */ preset) => {
    const chain = runs[preset]?.chain;
    return chain ? join(chain.dir(), chain.part) : join(dir(), preset);
  };
  const RUNS = /** @type {Record<string, PresetRun>} */ (Object.fromEntries(presets.map((preset) => [preset, runs[preset] ?? { args: ['--no-probe'], seed: 11, pinning: SPLIT }])));

  describe.each(presets)('sweep %s --test, end to end with real processes', (preset) => {
    const out = () => sweptDir(preset);
    const { args, seed, pinning, env, timeoutMs = 60_000, flags = {}, report = true, chain } = RUNS[preset];
    /** what the sweep prints on stdout: its results directory, or the chain's */
    const printed = () => (chain ? chain.dir() : out());
    /** the preset's spec in test mode, with the design flags the sweep was given */
    const specOf = () => resolveSpec(loadSpec(preset), { test: true, flags });
    /** @type {Awaited<ReturnType<typeof callMain>>} */
    let result;
    beforeAll(async () => {
      if (chain) {
        // the chain's sweep: its exit code and stdout, and of its stderr what the part printed
        const whole = await chain.sweep();
        result = { ...whole, stderr: partSection(whole.stderr, chain.part) };
        SWEPT.set(preset, result);
        return;
      }
      // in this process (the binary's own start is tested in package-smoke and the fault tests): its lanes and servers
      // are real processes all the same, and the report's modules load once a worker, not once a sweep
      result = await callMain(['sweep', preset, '--test', '--seed', String(seed), ...args, ...Object.entries(flags).flatMap(([key, value]) => [`--${key}`, value]), ...(report ? [] : ['--no-report']), '--out', out()], { env });
      SWEPT.set(preset, result);
    }, timeoutMs + 30_000);

    it(`exits 0 and prints the summary, the verdicts and every file it wrote on stderr${report ? '' : ' (--no-report: none of the report)'}, only the results directory on stdout`, async () => {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(`${printed()}\n`);
      if (chain) expect(result.stderr).toMatch(new RegExp(`^== part ${chain.part} \\(`));
      const w = workloadOf(preset);
      const { compared } = await comparedGroups(out());
      // the table of ratios where some group has one; in open loop on a loaded machine perhaps none, and a warning counts the rows that missed their rate
      if (compared.size || !w.columns.includes('limit')) expect(result.stderr).toContain(`UDS/TCP ${w.summary[w.primary].short}`);
      if (w.columns.includes('limit')) {
        const rows = parseCsv(await readFile(join(out(), 'trials.csv'), 'utf8'));
        const ok = rows.filter((/** @type {any} */ r) => r.status === 'ok');
        const missed = ok.filter((/** @type {any} */ r) => r.limit !== 'none').length;
        if (missed) expect(result.stderr).toContain(`in ${missed} of ${ok.length} open-loop rows the offered rate was not kept`);
        else expect(result.stderr).not.toContain('open-loop rows the offered rate was not kept');
      }
      for (const file of ['trials.csv', 'blocks.csv', 'summary.csv', 'runs-wide.csv', 'meta.json']) expect(result.stderr).toContain(join(out(), file));
      for (const file of ['summary.md', 'report.html', 'results.xlsx', 'chart-uds-vs-tcp.svg', 'chart-cpu.svg']) {
        if (report) expect(result.stderr).toContain(join(out(), file));
        else expect([result.stderr.includes(join(out(), file)), existsSync(join(out(), file))], file).toEqual([false, false]);
      }
      // the proxy workload writes its nginx config beside the results, and only it
      expect(existsSync(join(out(), 'nginx.conf'))).toBe(w.fixture.proxy);
      expect(result.stderr).not.toMatch(/report could not be made/);
      if (report) expect(result.stderr).not.toMatch(/--no-report/);
      else expect(result.stderr).toContain(`no report files (--no-report); to write them: npx udsvstcp report ${out()}\n`);
    });

    // the report: of the presets swept with it (a preset swept with --no-report has its workload's report checked on another's)
    if (report) it("draws and tabulates the workload's own figures: CPU per its unit, and its p50/p99 times where it has them", async () => {
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
      expect([typeof primary.value, primary.numFmt]).toEqual(['number', { gb_per_s: '0.000', resp_p99_us: '0.00' }[w.primary] ?? '#,##0']);
      const times = Object.keys(w.summary).some((m) => m.endsWith('_p50_us'));
      expect(existsSync(join(out(), 'chart-rtt.svg'))).toBe(times);
      // open loop: response times against the offered rate, drawn from the rows that kept their rate
      const trials = parseCsv(await readFile(join(out(), 'trials.csv'), 'utf8'));
      const kept = trials.some((/** @type {any} */ r) => r.status === 'ok' && r.limit === 'none');
      expect(existsSync(join(out(), 'chart-load.svg'))).toBe(w.columns.includes('limit') && kept);
      // and the percentile spectrum at half the lower knee, where a knee was found
      const spectrum = findKnees(trials).some((k) => k.spectrum);
      expect(existsSync(join(out(), 'chart-spectrum.svg'))).toBe(spectrum);
      if (spectrum) {
        const svg = await readFile(join(out(), 'chart-spectrum.svg'), 'utf8');
        expect(svg).toContain('percentiles at half the lower knee');
        expect(svg).toMatch(/<path[^>]* d="M/); // lines drawn, not an empty panel
      }
    });

    it('writes trials.csv, blocks.csv, summary.csv and runs-wide.csv with the header lines test/fixtures/schema pins', async () => {
      await expectPinnedHeaders(out(), workloadOf(preset).name);
    });

    it('writes trials.csv: one row per planned trial, numeric cells', async () => {
      const spec = specOf();
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
          // an open-loop row says in words whether it kept its rate
          if (key === 'limit') expect(row[key]).toMatch(/^(none|server|generator)$/);
          if (key === 'limit' || key === 'limit_reason') continue;
          expect(row[key], key).toMatch(/^-?\d+(\.\d+)?$/); // never exponent notation
        }
      }
    });

    it('writes summary.csv with statistics per size, depth and transport, and UDS/TCP ratios where both kept to their work', async () => {
      const rows = parseCsv(await readFile(join(out(), 'summary.csv'), 'utf8'));
      const { compared } = await comparedGroups(out());
      const primary = workloadOf(preset).primary;
      const ratioGroups = new Set(rows.filter((/** @type {any} */ r) => r.transport === 'uds/tcp' && r.metric === primary).map((/** @type {any} */ r) => `${r.size_bytes}|${r.depth}`));
      expect([...ratioGroups].sort()).toEqual([...compared].sort());
      if (workloadOf(preset).columns.includes('limit')) return; // open loop: on a loaded machine no group may have kept its rate
      expect(compared.size).toBeGreaterThan(0);
      expect(rows.map((/** @type {any} */ r) => r.transport)).toEqual(expect.arrayContaining(['tcp', 'uds', 'uds/tcp']));
      expect(rows.find((/** @type {any} */ r) => r.transport === 'uds/tcp' && r.metric === primary)?.mean).toMatch(/^\d+(\.\d+)?$/);
    });

    it('writes runs-wide.csv in the 2014 layout (the primary figure for other workloads)', async () => {
      const spec = specOf();
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
      const spec = specOf();
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
      expect(meta.design).toMatchObject({ block_ms_target: 10, pairing: expect.any(String), ratio_interval: expect.stringMatching(/Student-t.*variances moderated across groups/) });
      expect(meta.design.server_warmup).toMatch(/^none \(test mode/); // --test: no unrecorded warm-up trial
      expect(meta).toMatchObject({ status: 'complete', seed, spec: { preset, test: true, seed }, no_delay: expect.any(Boolean), pinning });
      expect(meta.sessions[0].pinning).toBe(pinning);
      expect(meta.environment).toMatchObject({ node: process.versions.node, libuv: process.versions.uv, cpu_count: expect.any(Number), os_release: expect.any(String) });
      expect(Date.parse(meta.ended_at)).toBeGreaterThanOrEqual(Date.parse(meta.started_at));
      expect(meta.loadavg_start).toHaveLength(3);
      expect(meta.loadavg_end).toHaveLength(3);
    });
  });

  return {
    swept(preset) {
      const result = SWEPT.get(preset);
      if (!result) throw new Error(`the ${preset} sweep did not run (its describe block was skipped)`);
      return result;
    },
    sweptDir,
  };
}
