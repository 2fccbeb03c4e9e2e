/**
 * The sweep loop: one server fixture per Node version for the whole sweep, or one per round (warmed before its first
 * trial and after a restart), every trial in its own process, rows appended as they finish; after a failed trial the
 * fixture is checked and replaced if unusable (./fixture-keeper.js). After the planned runs, with a target precision,
 * groups whose UDS/TCP interval is still wider get more runs, round by round, while the time budget allows; never a
 * group whose last trial failed. Trial runner, server starter and clock are injected, so fakes can test the logic.
 */
import { performance } from 'node:perf_hooks';
import { failedTrial } from '../trial/trial.js';
import { createFixtureKeeper } from './fixture-keeper.js';
import { failingGroups, groupKey, jobKeys, planExtraRuns, planTrials, rowKey } from './schedule.js';
import { groupsShortOfPrecision } from '../stats/ratios.js';
import { depthLabel, getWorkload, sizeLabel } from '../workloads/index.js';
import { formatPercent } from '../core/units.js';

/** @typedef {import('../fixture/fixture.js').Fixture} Fixture "the server": what the trials connect to */

/**
 * @typedef {object} SweepDeps
 * @property {(node: string) => Promise<Fixture>} startServer the server of one Node version
 * @property {(server: Fixture, node: string, trial: import('../trial/trial.js').TrialSpec) => Promise<void>} [warmServer] run unrecorded
 *   traffic through a new server: `trial` is the plan's first group under that Node version, every transport of the sweep
 * @property {string[]} [nodes] the Node versions (the axis), the baseline first; default: the Node running this process
 * @property {(spec: import('../trial/trial.js').TrialSpec, server: Fixture) => Promise<import('../trial/trial.js').TrialResult>} runTrial rejects only when aborted
 * @property {{ appendAll: (rows: Record<string, unknown>[]) => void }} log trial rows (a trial's rows in one write)
 * @property {{ appendAll: (rows: Record<string, unknown>[]) => void }} [blockLog] block rows
 * @property {Record<string, any>[]} [previous] trial rows already recorded (resume)
 * @property {AbortSignal} [signal]
 * @property {() => number} [now] ms clock, for the time budget
 * @property {(job: import('./schedule.js').Job, index: number, total: number) => void} [onStart]
 * @property {(job: import('./schedule.js').Job, rows: Record<string, any>[], index: number, total: number) => void} [onEnd]
 * @property {(message: string) => void} [onNote]
 * @property {(replacement: import('./fixture-keeper.js').Replacement) => void} [onReplace] a fixture was replaced (before the new one starts)
 */

/** The settings a trial takes as they are, from a sweep's spec or run's options. */
const TRIAL_SETTINGS = /** @type {const} */ (['measure', 'warmup', 'seed', 'noDelay', 'timeoutMs', 'greeting', 'pipelining', 'clients', 'batch', 'keepalive', 'arrivals', 'connections']);

/**
 * @template {Record<(typeof TRIAL_SETTINGS)[number], any>} T
 * @param {T} from
 * @returns {Pick<T, (typeof TRIAL_SETTINGS)[number]>}
 */
export const trialSettings = (from) => /** @type {any} */ (Object.fromEntries(TRIAL_SETTINGS.map((key) => [key, from[key]])));

/**
 * @param {import('./spec.js').SweepSpec} spec
 * @param {import('./schedule.js').Job} job
 * @param {Fixture} server
 */
function trialSpec(spec, job, server) {
  return {
    ...trialSettings(spec),
    workload: spec.workload,
    targets: job.transports.map((t) => server.targets[t]),
    size: job.size,
    depth: job.depth,
    maxMs: spec.trialTimeoutMs,
    node_version: job.node,
    blockMs: spec.blockMs,
    test: spec.test,
  };
}

/** A group's interval half-width; one run has no interval: the widest. */
const width = (/** @type {{ halfWidth: number | null }} */ g) => g.halfWidth ?? Infinity;

/**
 * @param {import('./spec.js').SweepSpec} spec
 * @param {SweepDeps} deps
 * @returns {Promise<{ rows: Record<string, any>[], interrupted: boolean, planned: number, extra: number, timeUp: boolean }>} planned and extra count trial rows
 */
export async function runSweep(spec, deps) {
  const { startServer, warmServer, runTrial, log, blockLog, previous = [], signal, now = () => performance.now(), onStart, onEnd, onNote, onReplace, nodes = [process.version] } = deps;
  const started = now();
  const planSpec = { ...spec, nodes };
  const plan = planTrials(planSpec);
  const done = new Set(previous.map(rowKey));
  const todo = plan.filter((job) => !jobKeys(job).every((k) => done.has(k)));
  /** @type {Record<string, any>[]} */
  const rows = [];
  let interrupted = Boolean(signal?.aborted); // aborted before it began: nothing is started
  let timeUp = false;
  let extra = 0;
  const keeper = createFixtureKeeper({
    startServer,
    warmServer: warmServer && ((server, node) => {
      const first = plan.find((job) => job.node === node) ?? plan[0];
      return warmServer(server, node, trialSpec(spec, { ...first, node, transports: spec.transports }, server));
    }),
    named: nodes.length > 1, onNote, onReplace, signal,
  });
  /** @type {number[]} */
  const trialTimes = [];

  /** @type {string | undefined} */
  let serverRound;
  /** once the signal is aborted: interrupted, and no trial is started or recorded */
  const stopping = () => (interrupted = Boolean(signal?.aborted));
  /**
   * @param {import('./schedule.js').Job} job
   * @param {number} index
   * @param {number} total
   * @param {string} round which planned run or precision round the job belongs to
   * @returns {Promise<boolean>} false when aborted
   */
  const runJob = async (job, index, total, round) => {
    if (stopping()) return false;
    if (spec.server === 'round' && serverRound !== undefined && serverRound !== round) await keeper.stop(); // a planned restart, not a replacement
    serverRound = round;
    const server = await keeper.ready(job.node);
    if (stopping()) return false;
    onStart?.(job, index, total);
    const spec1 = trialSpec(spec, job, server);
    const t0 = now();
    let result;
    try {
      result = await runTrial(spec1, server);
    } catch (error) {
      if (stopping()) return false;
      throw error;
    }
    trialTimes.push(now() - t0);
    if (!server.alive()) result = failedTrial(spec1, new Error('the server died during the trial'));
    const jobRows = result.records.map((record) => ({ run: job.run, order: job.order, ...record }));
    log.appendAll(jobRows);
    blockLog?.appendAll(result.blocks.map((b) => ({ run: job.run, node_version: job.node, size_bytes: job.size, depth: job.depth, ...b })));
    rows.push(...jobRows);
    onEnd?.(job, jobRows, index, total);
    await keeper.afterTrial(job, jobRows); // a failed trial: the fixture is checked, and replaced if unusable
    return true;
  };

  try {
    for (const [index, job] of todo.entries()) {
      if (!(await runJob(job, index, todo.length, `run ${job.run}`))) break;
    }
    for (let round = 0; spec.precision !== null && !interrupted && !timeUp; round++) {
      const all = [...previous, ...rows];
      const target = `±${+(spec.precision * 100).toFixed(3)} %`;
      // a (size, depth) group short under any Node version gets one more run under every version: the version whose
      // interval is widest stands for it
      /** @type {Map<string, ReturnType<typeof groupsShortOfPrecision>[number]>} */
      const by = new Map();
      for (const g of groupsShortOfPrecision(all, spec.precision, getWorkload(spec.workload).primary, { moderate: spec.intervals !== 'own' })) {
        const seen = by.get(groupKey(g));
        if (!seen || width(g) > width(seen)) by.set(groupKey(g), g);
      }
      const wide = [...by.values()];
      // a group whose last trial failed gets no more runs: they would feed on the failure
      const failing = failingGroups(all);
      const short = wide.filter((g) => !failing.has(groupKey(g)));
      const left = wide.length - short.length;
      const leftOut = left ? `; ${left} more left out: their last trial failed` : '';
      if (short.length === 0) {
        if (left) onNote?.(`precision: ${left} group(s) wider than ${target} get no more runs: their last trial failed`);
        break;
      }
      // the half of them (at least one) that one more run brings closest to the target gets it this round
      const chosen = [...short].sort((a, b) => b.gain - a.gain).slice(0, Math.ceil(short.length / 2));
      const widest = short.reduce((a, b) => (width(a) >= width(b) ? a : b));
      const nextRun = (/** @type {{ size: number, depth: number }} */ g) => 1 + Math.max(-1, ...all.filter((r) => groupKey(/** @type {any} */ (r)) === groupKey(g)).map((r) => Number(r.run)));
      const extraJobs = planExtraRuns(chosen.map((g) => ({ ...g, run: nextRun(g) })).filter((g) => g.run < spec.maxRuns), planSpec, round);
      if (extraJobs.length === 0) break;
      /** whether one more trial, of the typical length so far, would pass --max-time: then it is not started */
      const outOfTime = () => {
        const typical = trialTimes.length ? trialTimes.reduce((a, b) => a + b, 0) / trialTimes.length : 0;
        if (spec.maxTimeMs === null || now() - started + typical <= spec.maxTimeMs) return false;
        timeUp = true;
        onNote?.(`--max-time ${spec.maxTimeMs / 1000} s reached: ${short.length} group(s) short of ${target}`);
        return true;
      };
      // a round is announced only when its first trial fits in the time left
      if (outOfTime()) break;
      onNote?.(`precision round ${round + 1}: ${short.length} group(s) wider than ${target}, widest ${sizeLabel(spec.workload, widest.size)} ${depthLabel(spec.workload, widest.depth)} ${widest.halfWidth === null ? '(one run)' : `±${formatPercent(widest.halfWidth * 100, spec.precision * 100)} %`}; one more run for the ${chosen.length} that gain most from one${leftOut}`);
      for (const [index, job] of extraJobs.entries()) {
        if (index > 0 && outOfTime()) break;
        if (!(await runJob(job, index, extraJobs.length, `round ${round}`))) break;
        extra += job.transports.length;
      }
    }
  } finally {
    await keeper.stop();
  }
  return { rows, interrupted, planned: plan.reduce((n, job) => n + job.transports.length, 0), extra, timeUp };
}
