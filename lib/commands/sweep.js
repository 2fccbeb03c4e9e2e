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
import { runSweep } from '../sweep/orchestrator.js';
import { resolvePinning } from '../sweep/pinning.js';
import { FILES, defaultOutDir, openTrialLog, prepareOutDir, readMeta, readTrials, writeFileAtomic } from '../sweep/results.js';
import { jobKey } from '../sweep/schedule.js';
import { describeSpec, loadSpec, resolveSpec } from '../sweep/spec.js';
import { runTrialProcess } from '../sweep/trial-process.js';

/** Flags that override spec keys. */
const SPEC_FLAGS = ['sizes', 'depths', 'transports', 'runs', 'packets', 'duration', 'warmup', 'seed', 'pin', 'trialTimeout'];

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
  const progress = createProgress({ stream: stderr, quiet, chalk });
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let result;
  try {
    result = await runSweep(spec, {
      log,
      done: new Set(previous.map((r) => jobKey(r))),
      signal: controller.signal,
      startServer: async () => {
        const server = await spawnServer({ greeting: spec.greeting, noDelay: spec.noDelay, prefix: pinning.server });
        progress.note(chalk.dim(`echo server pid ${server.pid}: tcp ${server.tcp.host}:${server.tcp.port}, uds ${server.uds.path}`));
        return server;
      },
      runTrial: (trialSpec, server) => runTrialProcess(trialSpec, { server: /** @type {any} */ (server), prefix: pinning.client, limitMs: spec.trialTimeoutMs + 5000, signal: controller.signal }),
      onStart: progress.start,
      onEnd: progress.end,
      onNote: progress.note,
    });
  } finally {
    progress.stop();
    log.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  const rows = [...previous, ...result.rows];
  const summary = summarize(rows);
  writeFileAtomic(join(dir, FILES.summary), toCsv(summary, SUMMARY_COLUMNS));
  const wide = toRunsWide(rows, spec);
  writeFileAtomic(join(dir, FILES.wide), toCsv(wide.rows, wide.columns));
  const failed = rows.filter((r) => r.status !== 'ok').length;
  Object.assign(meta, { status: result.interrupted ? 'interrupted' : 'complete', ended_at: new Date().toISOString(), loadavg_end: os.loadavg(), trials_planned: result.planned, trials_recorded: rows.length, trials_failed: failed });
  writeFileAtomic(metaPath, `${JSON.stringify(meta, null, 2)}\n`);

  say(`\n${toSummaryText(summary)}`);
  say(`\n${rows.length} of ${result.planned} trials recorded${failed ? chalk.red(`, ${failed} failed (status=error in trials.csv)`) : ''}\n`);
  for (const file of [FILES.trials, FILES.summary, FILES.wide, FILES.meta]) say(`  ${join(resolve(dir), file)}\n`);
  await reportSweep(dir, { stderr, chalk, quiet });
  if (result.interrupted) {
    stderr.write(`interrupted: what was measured is kept. Resume with:\n  npx udsvstcp sweep --resume ${dir}\n`);
    return 130;
  }
  return failed ? 1 : 0;
}
