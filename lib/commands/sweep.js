/**
 * `udsvstcp sweep`: repeated, interleaved, isolated trials into a results
 * directory (trials.csv, summary.csv, runs-wide.csv, meta.json).
 */
import { join, resolve } from 'node:path';
import os from 'node:os';
import { UsageError } from '../errors.js';
import { collectEnvironment, describeEnvironment } from '../environment.js';
import { createProgress } from '../progress.js';
import { toCsv } from '../report/csv.js';
import { SUMMARY_COLUMNS, summarize, toSummaryText } from '../report/summary.js';
import { toRunsWide } from '../report/wide.js';
import { reportSweep } from './report.js';
import { spawnServer } from '../server-process.js';
import { runSweep, trialSpec } from '../sweep/orchestrator.js';
import { resolvePinning } from '../sweep/pinning.js';
import { FILES, defaultOutDir, openBlockLog, openTrialLog, prepareOutDir, readMeta, readTrials, writeFileAtomic } from '../sweep/results.js';
import { planTrials } from '../sweep/schedule.js';
import { describeSpec, loadSpec, resolveSpec } from '../sweep/spec.js';
import { runTrialProcess } from '../sweep/trial-process.js';
import { FILL_FACTOR } from '../workloads/echo.js';

/** Unrecorded traffic through a new server before its first measured trial, per transport. */
const SERVER_WARMUP_MS = 300;

/** Flags that override spec keys. */
const SPEC_FLAGS = ['sizes', 'depths', 'transports', 'runs', 'packets', 'duration', 'warmup', 'seed', 'pin', 'trialTimeout', 'pairing', 'block', 'precision', 'maxTime'];

/**
 * Resolve the spec and results directory before anything starts.
 * @param {string | undefined} preset
 * @param {Record<string, any>} opts
 */
export function resolveSweep(preset, opts) {
  const flags = Object.fromEntries(SPEC_FLAGS.map((k) => [k, opts[k]]));
  if (opts.resume !== undefined) {
    if (opts.out !== undefined) throw new UsageError('--resume DIR and --out DIR exclude each other: the results go back into DIR');
    const dir = opts.resume;
    prepareOutDir(dir, { resume: true, flag: '--resume' });
    const meta = readMeta(dir);
    /** @type {import('../sweep/spec.js').SweepSpec} */
    const stored = meta.spec;
    if (preset !== undefined || opts.test || SPEC_FLAGS.some((k) => opts[k] !== undefined)) {
      const given = resolveSpec(loadSpec(preset ?? stored.preset), { test: Boolean(opts.test), flags: { ...flags, seed: opts.seed ?? stored.seed } });
      const differ = Object.keys(stored).filter((k) => JSON.stringify(/** @type {any} */ (stored)[k]) !== JSON.stringify(/** @type {any} */ (given)[k]));
      if (differ.length) throw new UsageError(`--resume ${dir}: the spec given differs from the one recorded in ${FILES.meta} in: ${differ.join(', ')} (give --resume DIR alone to use the recorded spec)`);
    }
    return { spec: stored, dir, resume: true, meta, previous: readTrials(dir) };
  }
  const spec = resolveSpec(loadSpec(preset ?? 'default'), { test: Boolean(opts.test), flags });
  const dir = opts.out ?? defaultOutDir(spec.preset);
  prepareOutDir(dir, { resume: false, flag: opts.out !== undefined ? '--out' : 'results directory' });
  return { spec, dir, resume: false, meta: undefined, previous: [] };
}

/**
 * @param {string | undefined} preset
 * @param {Record<string, any>} opts raw options from commander
 * @param {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream & { isTTY?: boolean }, chalk: import('chalk').ChalkInstance }} io
 * @returns {Promise<number>}
 */
export async function sweep(preset, opts, { stderr, chalk }) {
  const { spec, dir, resume, meta: oldMeta, previous } = resolveSweep(preset, opts);
  const quiet = Boolean(opts.quiet);
  const say = (/** @type {string} */ text) => { if (!quiet) stderr.write(text); };
  const pinning = resolvePinning(spec.pin);
  const environment = collectEnvironment();
  const meta = {
    ...(oldMeta ?? {}),
    udsvstcp: environment.udsvstcp,
    spec,
    seed: spec.seed,
    status: 'running',
    started_at: oldMeta?.started_at ?? new Date().toISOString(),
    resumed_at: resume ? [...(oldMeta?.resumed_at ?? []), new Date().toISOString()] : [],
    ended_at: null,
    environment,
    pinning: pinning.applied,
    no_delay: spec.noDelay,
    design: {
      pairing: spec.pairing === 'blocks'
        ? 'one trial process per (run, size, depth) holds a TCP and a UDS connection to the same server and alternates measured blocks A B B A …; every block starts and ends with nothing in flight'
        : 'one trial process per (run, size, depth, transport), as in 2014',
      block_ms_target: spec.blockMs,
      block_packets_rule: `at least ${FILL_FACTOR} × depth packets, and at least block_ms_target at the slower transport's warmup rate; the packets per block of each trial are in trials.csv (block_packets), every block in ${FILES.blocks}`,
      measured_time_per_transport_ms: 'ms' in spec.measure ? spec.measure.ms : null,
      ratio_interval: 'Student-t 95 % interval of the mean per-run log(UDS/TCP), exp() back: runs (fresh processes) are the replicates',
      precision: spec.precision,
      max_time_ms: spec.maxTimeMs,
      server_warmup: `one unrecorded trial of the first group (${SERVER_WARMUP_MS} ms per transport) after the server starts`,
    },
    loadavg_start: oldMeta?.loadavg_start ?? os.loadavg(),
    loadavg_end: null,
  };
  const metaPath = join(dir, FILES.meta);
  writeFileAtomic(metaPath, `${JSON.stringify(meta, null, 2)}\n`);

  say(chalk.dim(`${describeEnvironment(environment)}\n`));
  say(`sweep ${describeSpec(spec)}\n`);
  if (pinning.note) say(chalk.yellow(`note: ${pinning.note}\n`));
  say(`results: ${resolve(dir)}${resume ? ` (resuming: ${previous.length} trials already there)` : ''}\n`);

  const log = openTrialLog(dir);
  const blockLog = openBlockLog(dir);
  const progress = createProgress({ stream: stderr, quiet, chalk });
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let result;
  try {
    result = await runSweep(spec, {
      log,
      blockLog,
      previous,
      signal: controller.signal,
      startServer: async () => {
        const server = await spawnServer({ greeting: spec.greeting, noDelay: spec.noDelay, prefix: pinning.server });
        progress.note(chalk.dim(`echo server pid ${server.pid}: tcp ${server.tcp.host}:${server.tcp.port}, uds ${server.uds.path}`));
        return server;
      },
      warmServer: async (server) => {
        // its result is not recorded; a server that cannot echo fails the first measured trial instead
        const [first] = planTrials(spec);
        const warm = { ...trialSpec(spec, { ...first, transports: spec.transports }, server), measure: { ms: SERVER_WARMUP_MS }, warmup: { packets: 0 } };
        await runTrialProcess(warm, { prefix: pinning.client, limitMs: spec.trialTimeoutMs + 5000, signal: controller.signal }).catch(() => undefined); // rejects only on Ctrl-C, which the sweep sees next
      },
      runTrial: (trialSpec, server) => runTrialProcess(trialSpec, { server: /** @type {any} */ (server), prefix: pinning.client, limitMs: spec.trialTimeoutMs + 5000, signal: controller.signal }),
      onStart: progress.start,
      onEnd: progress.end,
      onNote: progress.note,
    });
  } finally {
    progress.stop();
    log.close();
    blockLog.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  const rows = [...previous, ...result.rows];
  const summary = summarize(rows, { precision: spec.precision });
  writeFileAtomic(join(dir, FILES.summary), toCsv(summary, SUMMARY_COLUMNS));
  const wide = toRunsWide(rows, spec);
  writeFileAtomic(join(dir, FILES.wide), toCsv(wide.rows, wide.columns));
  const failed = rows.filter((r) => r.status !== 'ok').length;
  Object.assign(meta, { status: result.interrupted ? 'interrupted' : 'complete', ended_at: new Date().toISOString(), loadavg_end: os.loadavg(), trials_planned: result.planned, extra_runs: result.extra, max_time_reached: result.timeUp, trials_recorded: rows.length, trials_failed: failed });
  writeFileAtomic(metaPath, `${JSON.stringify(meta, null, 2)}\n`);

  say(`\n${toSummaryText(summary, { precision: spec.precision })}`);
  say(`\n${rows.length} trial rows recorded (${result.planned} planned${result.extra ? ` + ${result.extra} added for the precision` : ''})${failed ? chalk.red(`, ${failed} failed (status=error in trials.csv)`) : ''}\n`);
  for (const file of [FILES.trials, FILES.blocks, FILES.summary, FILES.wide, FILES.meta]) say(`  ${join(resolve(dir), file)}\n`);
  await reportSweep(dir, { stderr, chalk, quiet });
  if (result.interrupted) {
    stderr.write(`interrupted: what was measured is kept. Resume with:\n  npx udsvstcp sweep --resume ${dir}\n`);
    return 130;
  }
  return failed ? 1 : 0;
}
