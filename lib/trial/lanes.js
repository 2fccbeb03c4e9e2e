/**
 * One trial: each lane in a lane process of its own (./worker.js) holding its connection or channel, echo peer and
 * histogram, while this process schedules their blocks one at a time (lib/client/blocks.js scheduleBlocks), so lanes
 * never run at once. A lane sharing another's heap would collect its garbage in its own timed blocks (ipc-advanced's,
 * collected in ipc-json's, cost ipc-json about 14 % of its rate here), and a fresh process per trial keeps JIT state and
 * order from leaking between trials. This process is never measured: its work is outside every timed window.
 *
 * Lane processes start under the client's prefix (taskset, for --pin) on the trial's Node; their server snapshots go
 * through the probe. Any lane's failure, crash or kill fails the trial with an error record per target, each lane's own
 * cause where it failed itself (else the failing lane's, named); lanes silent
 * past the limit and a grace are killed; an abort rejects; a lane process outliving this one exits when its channel closes.
 */
import { fileURLToPath } from 'node:url';
import { startChild } from '../core/child.js';
import { RunError } from '../core/errors.js';
import { scheduleBlocks } from '../client/blocks.js';
import { checkLanes } from './lane-check.js';
import { failedTrial } from './trial.js';
import { NOT_MEASURED } from './record.js';

const WORKER = fileURLToPath(new URL('./worker.js', import.meta.url));
/** After its limit (each lane enforces it and reports), a trial's lane processes have this long to report before they are killed. */
const GRACE_MS = 5000;
/** A lane process that has not ended this long after the trial ended or failed is killed. */
const STOP_GRACE_MS = 2000;
/** How long a failed trial waits for its other lanes to fail or plan, so that each lane's record gives its own cause. */
const SETTLE_MS = 2000;

/**
 * @typedef {import('../workloads/workload.js').TrialSpec} TrialSpec
 * @typedef {import('../workloads/workload.js').TrialResult} TrialResult
 * @typedef {import('../client/blocks.js').ServerProbe} ServerProbe
 */

/**
 * @param {TrialSpec} spec one target or more
 * @param {object} context
 * @param {ServerProbe} [context.server] answers the lanes' snapshots
 * @param {string[]} [context.prefix] the client's command prefix, e.g. ['taskset', '-c', '1']
 * @param {string} [context.execPath] the Node the lanes run on (default: this process's)
 * @param {number} context.limitMs the trial's limit (--trial-timeout), unless the spec has its own maxMs
 * @param {number} [context.graceMs] after the limit, how long the lanes have to report before they are killed
 * @param {AbortSignal} [context.signal]
 * @param {(line: string) => void} [context.warn] what a lane says to the person running it, at once
 * @returns {Promise<TrialResult>} rejects only when aborted
 */
export async function runLanes(spec, { server, prefix = [], execPath = process.execPath, limitMs, graceMs = GRACE_MS, signal, warn }) {
  if (signal?.aborted) throw new RunError('aborted', 'ERR_ABORTED');
  const maxMs = spec.maxMs ?? limitMs;
  const lanes = spec.targets.map((target) => startLane({ ...spec, targets: [target], maxMs }, { server, prefix, execPath, warn }));
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  /** @type {() => void} */
  let onAbort = () => {};
  const failed = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new RunError(`trial exceeded its limit of ${maxMs / 1000} s (--trial-timeout) and its lane processes had not reported ${graceMs / 1000} s later; they were killed`, 'ERR_TIMEOUT')), maxMs + graceMs);
    onAbort = () => reject(new RunError('aborted', 'ERR_ABORTED'));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  failed.catch(() => {});
  // stops the scheduler once the trial has failed, so that it asks no lane for another block
  const stopped = new AbortController();
  let graceMsOnStop = STOP_GRACE_MS;
  try {
    const run = async () => {
      const plans = await Promise.all(lanes.map((lane) => lane.planned));
      const plan = { ...plans[0], minUnits: Math.max(...plans.map((p) => p.minUnits)) };
      // the first lane turns every lane's rate (scheduleBlocks') into its workload's words, where --duration cannot hold the blocks
      const onRates = (/** @type {number[]} */ rates) => lanes[0].send('rates', { rates });
      // a block that fails names its lane: lanes take turns, so the one whose block failed is the one that failed
      const executors = lanes.map((lane, k) => {
        const whose = (/** @type {unknown} */ e) => { throw Object.assign(/** @type {Error} */ (e), { lane: k }); };
        return { warm: (/** @type {number} */ units) => lane.executor.warm(units).catch(whose), measure: (/** @type {number} */ units, /** @type {number} */ index) => lane.executor.measure(units, index).catch(whose) };
      });
      const { blockUnits } = await scheduleBlocks(executors, { ...plan, signal: stopped.signal, onRates });
      for (const lane of lanes) lane.send('end', { blockUnits });
      const results = await Promise.all(lanes.map((lane) => lane.result));
      const failure = results.flatMap((r) => r.records).find((r) => r.status !== 'ok');
      if (failure) throw new Error(String(failure.error));
      return {
        records: lanes.length > 1 ? checkLanes(results.map((r) => r.records[0])) : results[0].records,
        blocks: results.flatMap((r) => r.blocks).sort((a, b) => a.block - b.block),
      };
    };
    return await Promise.race([run(), failed]);
  } catch (error) {
    stopped.abort();
    const abortLanes = () => { for (const lane of lanes) lane.send('abort', { reason: /** @type {Error} */ (error).message }); };
    if (signal?.aborted || /** @type {RunError} */ (error).code === 'ERR_TIMEOUT') {
      abortLanes();
      if (signal?.aborted) throw new RunError('aborted', 'ERR_ABORTED');
      graceMsOnStop = 0;
      return failedTrial(spec, /** @type {Error} */ (error));
    }
    // each lane's own cause first (before an abort makes it one), then the lanes are told to stop
    const result = await laneErrors(spec, lanes, /** @type {Error} */ (error));
    abortLanes();
    if (signal?.aborted) throw new RunError('aborted', 'ERR_ABORTED'); // Ctrl-C meanwhile: an interrupt, not failed rows
    return result;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    await Promise.all(lanes.map((lane) => lane.stop(graceMsOnStop)));
  }
}

/**
 * A failed trial's records, each lane's own: the error of a lane that failed before it planned (--tcp nobody serves,
 * --uds a path that is gone: each its own cause), and for a lane that did not, the trial's, saying whose it was. Each
 * lane still setting up has a moment to fail or plan. A trial that failed in a lane's block (a closed connection)
 * gives that lane its error and the others the same saying whose it was; one that failed otherwise once every lane had
 * planned gives every lane the trial's error, as it cannot tell whose it was.
 * @param {TrialSpec} spec
 * @param {{ planned: Promise<unknown> }[]} lanes in the order of spec.targets
 * @param {Error} error what failed the trial
 * @returns {Promise<TrialResult>}
 */
async function laneErrors(spec, lanes, error) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(resolve, SETTLE_MS, null); });
  // each lane bounded on its own: one slow to set up does not cost another its cause
  const own = await Promise.all(lanes.map((lane) => Promise.race([lane.planned.then(() => null, (/** @type {Error} */ e) => e), late])));
  clearTimeout(timer);
  const inBlock = /** @type {{ lane?: unknown }} */ (error).lane;
  const first = typeof inBlock === 'number' ? inBlock : own.findIndex((e) => e instanceof Error && e.message === error.message);
  if (first < 0) return failedTrial(spec, error);
  own[first] = error;
  const whose = `the ${spec.targets[first].transport} lane failed: `;
  return {
    records: spec.targets.map((target, k) => failedTrial({ ...spec, targets: [target] }, own[k] instanceof Error ? /** @type {Error} */ (own[k]) : new Error(`${NOT_MEASURED}${whose}${error.message}`)).records[0]),
    blocks: [],
  };
}

/**
 * One lane process: its plan, its blocks on request, its result.
 * @param {TrialSpec} spec one target
 * @param {{ server?: ServerProbe, prefix: string[], execPath: string, warn?: (line: string) => void }} context
 */
function startLane(spec, { server, prefix, execPath, warn }) {
  const what = `the ${spec.targets[0].transport} lane's process`;
  // own process group: a terminal's Ctrl-C reaches the orchestrator only, which decides
  const child = startChild({ what, argv: [execPath, WORKER], prefix });
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
      // a native crash (V8 out of memory) or EMFILE while loading: one line naming the limit, not a stack frame
      const why = child.endWords(exit, ' before reporting');
      reported({ records: [{ transport: spec.targets[0].transport, status: 'error', error: why }], blocks: [] });
      throw new RunError(why, 'ERR_CLOSED');
    }),
  ]);
  planned.catch(() => {});
  channel.on('warn', (message) => { if (typeof message.line === 'string') warn?.(message.line); });
  if (server) channel.serve('snapshot', () => server.snapshot());
  channel.send('trial', { spec, probe: Boolean(server) });
  return {
    planned,
    result,
    send: (/** @type {string} */ type, /** @type {Record<string, unknown>} */ body) => channel.send(type, body),
    /** @type {import('../client/blocks.js').BlockExecutor} */
    executor: {
      warm: (units) => channel.request('warm', { units }),
      measure: (units, index) => channel.request('measure', { units, index }),
    },
    stop: (/** @type {number} */ graceMs) => child.stop({ signal: null, graceMs }),
  };
}
