/**
 * A trial of several lanes, each in a process of its own. A lane's client
 * makes garbage that a lane sharing its heap would collect in its own timed
 * blocks (ipc-advanced's, collected during ipc-json's blocks, cost ipc-json
 * about 14 % of its rate here), so each lane runs in a lane process
 * (lib/trial/worker.js) that holds its connection or channel, its echo peer
 * and its histogram, and this process schedules their blocks: the same
 * paired order (A B B A …, A B C C B A …) and block length as one process
 * would (lib/client/blocks.js scheduleBlocks), one block at a time, so the
 * lanes never run at once. Lane processes inherit this process's CPU
 * affinity (the client's CPUs of --pin); server snapshots they ask for are
 * answered through this process's probe. Any lane's failure fails the trial,
 * as one process's would; a lane process that outlives its parent exits
 * when its channel closes.
 */
import { fileURLToPath } from 'node:url';
import { startChild } from '../core/child.js';
import { RunError } from '../core/errors.js';
import { scheduleBlocks } from '../client/blocks.js';
import { checkLanes } from './lane-check.js';

const WORKER = fileURLToPath(new URL('./worker.js', import.meta.url));
/**
 * A lane process that has not ended this long after the trial is killed:
 * well within the trial process's own grace (lib/trial/trial-process.js), so
 * that the trial still reports why it ended.
 */
const STOP_GRACE_MS = 2000;

/**
 * @typedef {import('../workloads/workload.js').TrialSpec} TrialSpec
 * @typedef {import('../workloads/workload.js').TrialResult} TrialResult
 * @typedef {import('../client/blocks.js').ServerProbe} ServerProbe
 */

/**
 * @param {TrialSpec} spec two or more targets
 * @param {import('../workloads/workload.js').TrialContext} context
 * @returns {Promise<TrialResult>}
 */
export async function runLanes(spec, { probe, signal, warn }) {
  const ms = (/** @type {any} */ a) => ('ms' in a ? a.ms : 0);
  const maxMs = spec.maxMs ?? (ms(spec.measure) * 2 + ms(spec.warmup)) * spec.targets.length + 600_000;
  const lanes = spec.targets.map((target) => startLane({ ...spec, targets: [target], maxMs }, probe, warn));
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  /** @type {() => void} */
  let onAbort = () => {};
  const failed = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new RunError(`trial exceeded its limit of ${maxMs / 1000} s`, 'ERR_TIMEOUT')), maxMs);
    onAbort = () => reject(new RunError('trial aborted', 'ERR_ABORTED'));
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  failed.catch(() => {});
  // stops the scheduler once the trial has failed, so that it asks no lane for another block
  const stopped = new AbortController();
  try {
    const run = async () => {
      const plans = await Promise.all(lanes.map((lane) => lane.planned));
      const plan = { ...plans[0], minUnits: Math.max(...plans.map((p) => p.minUnits)) };
      // the first lane turns every lane's first rate into its workload's words, where --duration cannot hold the blocks
      const onRates = (/** @type {number[]} */ rates) => lanes[0].send('rates', { rates });
      const { blockUnits } = await scheduleBlocks(lanes.map((lane) => lane.executor), { ...plan, signal: stopped.signal, onRates });
      for (const lane of lanes) lane.send('end', { blockUnits });
      const results = await Promise.all(lanes.map((lane) => lane.result));
      const failure = results.flatMap((r) => r.records).find((r) => r.status !== 'ok');
      if (failure) throw new Error(String(failure.error));
      return {
        records: checkLanes(results.map((r) => r.records[0])),
        blocks: results.flatMap((r) => r.blocks).sort((a, b) => a.block - b.block),
      };
    };
    return await Promise.race([run(), failed]);
  } catch (error) {
    stopped.abort();
    for (const lane of lanes) lane.send('abort', { reason: /** @type {Error} */ (error).message });
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    await Promise.all(lanes.map((lane) => lane.stop()));
  }
}

/**
 * One lane process: its plan, its blocks on request, its result.
 * @param {TrialSpec} spec one target
 * @param {ServerProbe | undefined} probe
 * @param {((line: string) => void) | undefined} warn
 */
function startLane(spec, probe, warn) {
  const what = `the ${spec.targets[0].transport} lane's process`;
  // own process group, as a trial process: a terminal's Ctrl-C reaches the orchestrator only
  const child = startChild({ what, argv: [process.execPath, WORKER] });
  const { channel } = child;
  /** @type {(result: TrialResult) => void} */
  let reported = () => {};
  /** @type {Promise<TrialResult>} */
  const result = new Promise((resolve) => { reported = resolve; });
  /** @type {Promise<import('../client/blocks.js').BlockPlan>} */
  const planned = Promise.race([
    channel.next('plan').then((message) => message.plan),
    channel.next('result').then((message) => {
      reported(message.result);
      // a lane that failed before it planned: its records say why; once it has reported, requests fail at once
      const failure = message.result.records.find((/** @type {any} */ r) => r.status !== 'ok');
      const error = new RunError(failure ? String(failure.error) : `${what} ended before measuring`, 'ERR_CLOSED');
      channel.end(error);
      throw error;
    }),
    child.exited.then((exit) => {
      const why = child.endWords(exit, ' before reporting');
      reported({ records: [{ transport: spec.targets[0].transport, status: 'error', error: why }], blocks: [] });
      throw new RunError(why, 'ERR_CLOSED');
    }),
  ]);
  planned.catch(() => {});
  channel.on('warn', (message) => { if (typeof message.line === 'string') warn?.(message.line); });
  if (probe) channel.serve('snapshot', () => probe.snapshot());
  channel.send('trial', { spec, probe: Boolean(probe), lane: true });
  return {
    planned,
    result,
    send: (/** @type {string} */ type, /** @type {Record<string, unknown>} */ body) => channel.send(type, body),
    /** @type {import('../client/blocks.js').BlockExecutor} */
    executor: {
      warm: (units) => channel.request('warm', { units }),
      measure: (units, index) => channel.request('measure', { units, index }),
    },
    stop: () => child.stop({ signal: null, graceMs: STOP_GRACE_MS }),
  };
}
