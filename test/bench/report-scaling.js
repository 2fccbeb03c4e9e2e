#!/usr/bin/env node
/**
 * npm run bench:report: does `udsvstcp report` stay linear in the trial rows?
 *
 * Generates synthetic results directories of an echo sweep, written with the
 * real writers (trials.csv through createLog/openLog, meta.json
 * through createMeta/endSession/writeMeta, the spec through resolveSpec), so
 * they are valid input: 20 groups (5 sizes × 4 depths) × 2 transports ×
 * runs, with 250 runs (10⁴ rows) and 1000 runs (4·10⁴ rows, as many runs
 * as a sweep may hold; more rows need more groups: --sizes). Then runs `udsvstcp report DIR --quiet` on each in
 * a fresh child process and prints its wall time, its CPU time (user +
 * system: on a shared machine the steadier of the two) and peak RSS, and the
 * ratios of the large case to the small one.
 *
 * Goals (checked here, never in the tests): 4·10⁴ rows take at most 4.8×
 * the CPU time of 10⁴ (linear is 4×), and peak RSS stays under 1 GB.
 *
 *   node test/bench/report-scaling.js [--keep] [--small 10000] [--large 40000] [--sizes 5]
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { collectEnvironment } from '../../lib/core/environment.js';
import { MAX_RUNS } from '../../lib/core/limits.js';
import { createRandom } from '../../lib/core/random.js';
import { beginSession, createMeta, endSession, writeMeta } from '../../lib/results/meta.js';
import { createLog, openLog } from '../../lib/results/writer.js';
import { resolveSpec } from '../../lib/sweep/spec.js';
import { createRecord } from '../../lib/trial/record.js';

const SELF = fileURLToPath(import.meta.url);
const run = promisify(execFile);

const DEPTHS = [1, 4, 16, 64];
/** The goal: the large case at most this many times the small one. */
const MAX_RATIO = 4.8;
/** The goal: peak resident memory of the large case. */
const MAX_RSS_BYTES = 1e9;

/**
 * A results directory of an echo sweep with `runs` runs of every group, both transports.
 * @param {string} dir an empty directory
 * @param {number[]} sizes
 * @param {number} runs
 */
function writeSyntheticSweep(dir, sizes, runs) {
  const spec = resolveSpec({ name: 'bench', source: 'report-scaling.js', raw: { sizes, depths: DEPTHS, runs, duration: '200ms', seed: 1 } });
  const environment = collectEnvironment();
  const meta = createMeta(spec, environment);
  beginSession(meta, { kind: 'start', environment, pinning: 'none' });
  createLog(dir, 'trials', 'echo');
  const log = openLog(dir, 'trials', 'echo');
  const random = createRandom(1);
  try {
    for (let r = 0; r < runs; r++) {
      const rows = [];
      for (const size of sizes) {
        for (const depth of DEPTHS) {
          for (const transport of ['tcp', 'uds']) {
            const msgs = (transport === 'uds' ? 60_000 : 50_000) * depth ** 0.5 * (0.9 + 0.2 * random()) / (1 + size / 65536);
            const elapsed = 200 * (0.95 + 0.1 * random());
            rows.push({
              run: r, order: rows.length >> 1,
              ...createRecord({
                workload: 'echo', transport, size_bytes: size, depth, packets: Math.round((msgs * elapsed) / 1000), blocks: 20, block_packets: 100 * depth,
                elapsed_ms: elapsed, msgs_per_s: msgs, mb_per_s: (msgs * size) / 1e6,
                rtt_mean_us: (1e6 * depth) / msgs, rtt_sd_us: 1e5 / msgs, rtt_p50_us: (0.9e6 * depth) / msgs, rtt_p90_us: (1.3e6 * depth) / msgs,
                rtt_p99_us: (2e6 * depth) / msgs, rtt_p999_us: (3e6 * depth) / msgs, rtt_max_us: (5e6 * depth) / msgs,
                client_cpu_us_per_msg: (5e5 / msgs) * (0.9 + 0.2 * random()), server_cpu_us_per_msg: (3e5 / msgs) * (0.9 + 0.2 * random()),
                client_elu: 0.5 + 0.2 * random(), server_elu: 0.3 + 0.2 * random(),
              }),
            });
          }
        }
      }
      log.appendAll(rows);
    }
  } finally {
    log.close();
  }
  const rows = runs * sizes.length * DEPTHS.length * 2;
  endSession(meta, 'complete', { trials_planned: rows, trials_recorded: rows, trials_failed: 0 });
  writeMeta(dir, meta);
}

/**
 * `udsvstcp report DIR --quiet` in a fresh process: its wall time and peak RSS.
 * @param {string} dir
 */
async function timeReport(dir) {
  const started = performance.now();
  const { stdout } = await run(process.execPath, [SELF, '--child', dir], { timeout: 600_000, maxBuffer: 1 << 20 });
  const ms = performance.now() - started;
  const { code, cpuMs, maxRssBytes } = JSON.parse(stdout);
  if (code !== 0) throw new Error(`udsvstcp report ${dir} exited ${code}`);
  return { ms, cpuMs, maxRssBytes };
}

/** @param {string} dir */
async function child(dir) {
  const { main } = await import('../../lib/cli.js');
  const sink = /** @type {any} */ ({ write: () => true });
  const code = await main(['report', dir, '--quiet'], { stdout: sink, stderr: process.stderr, env: { ...process.env, NO_COLOR: '1' } });
  const usage = process.resourceUsage();
  return { code, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000, maxRssBytes: usage.maxRSS * 1024 };
}

async function parent() {
  const { values } = parseArgs({ options: { keep: { type: 'boolean', default: false }, small: { type: 'string', default: '10000' }, large: { type: 'string', default: '40000' }, sizes: { type: 'string', default: '5' } } });
  // sizes 64 B, 128 B, … (powers of two) × 4 depths: the groups; both cases have the same groups and differ in runs
  const sizes = Array.from({ length: Math.min(21, Math.max(1, Number(values.sizes))) }, (_, i) => 64 * 2 ** i);
  const groups = sizes.length * DEPTHS.length;
  const cases = [Number(values.small), Number(values.large)].map((rows) => ({ rows, runs: Math.max(1, Math.round(rows / (groups * 2))) }));
  const tooMany = cases.find((c) => c.runs > MAX_RUNS);
  if (tooMany) throw new Error(`${tooMany.rows} rows in ${groups} groups would be ${tooMany.runs} runs, more than a sweep may hold (${MAX_RUNS}): give more --sizes`);
  const root = await mkdtemp(join(tmpdir(), 'udsvstcp-bench-report-'));
  try {
    process.stdout.write(`| trial rows | groups | runs | generate s | report wall s | report CPU s | peak RSS MB |\n|---:|---:|---:|---:|---:|---:|---:|\n`);
    const results = [];
    for (const c of cases) {
      const dir = await mkdtemp(join(root, `rows-${c.runs * groups * 2}-`));
      const generated = performance.now();
      writeSyntheticSweep(dir, sizes, c.runs);
      const generateMs = performance.now() - generated;
      const { ms, cpuMs, maxRssBytes } = await timeReport(dir);
      results.push({ ...c, ms, cpuMs, maxRssBytes });
      process.stdout.write(`| ${c.runs * groups * 2} | ${groups} | ${c.runs} | ${(generateMs / 1000).toFixed(1)} | ${(ms / 1000).toFixed(2)} | ${(cpuMs / 1000).toFixed(2)} | ${(maxRssBytes / 1e6).toFixed(0)} |\n`);
    }
    const [small, large] = results;
    const ratio = large.cpuMs / small.cpuMs;
    const rowsRatio = (large.runs / small.runs).toFixed(1);
    const timeOk = ratio <= MAX_RATIO;
    const memoryOk = large.maxRssBytes <= MAX_RSS_BYTES;
    process.stdout.write(`\nCPU time ratio ${ratio.toFixed(2)}× for ${rowsRatio}× the rows (goal: at most ${MAX_RATIO}×): ${timeOk ? 'met' : 'NOT MET'}; wall time ratio ${(large.ms / small.ms).toFixed(2)}×\n`);
    process.stdout.write(`peak RSS ${(large.maxRssBytes / 1e6).toFixed(0)} MB (goal: at most ${MAX_RSS_BYTES / 1e6} MB): ${memoryOk ? 'met' : 'NOT MET'}\n`);
    if (values.keep) process.stdout.write(`directories kept in ${root}\n`);
    process.exitCode = timeOk && memoryOk ? 0 : 1;
  } finally {
    if (!values.keep) await rm(root, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') process.stdout.write(JSON.stringify(await child(process.argv[3])));
else await parent();
