/**
 * What every workload's client does alike: the trial's limit and abort, lanes measured in blocks and named as rows, HDR
 * percentiles. The declarations import it too (mechanismColumns), so the block machinery loads only when a trial runs.
 */
import { createHistogram, performance } from 'node:perf_hooks';
import { RunError } from '../core/errors.js';

/** @typedef {import('../client/blocks.js').Lane & { histogram: import('node:perf_hooks').RecordableHistogram }} Lane a lane with its histogram */

/** HDR histogram bounds for per-unit times in ns: 1 ns to 1 hour, 3 significant figures. */
export const HISTOGRAM = { lowest: 1, highest: 3_600_000_000_000, figures: 3 };

/** A spec amount (packets or ms) as lib/client/blocks.js counts it. @param {import('./workload.js').Amount} amount */
const toAmount = (amount) => ('packets' in amount ? { count: amount.packets } : amount);

/**
 * Mean, sd and percentiles of a histogram of ns, in µs, as columns `<prefix>_mean_us` ….
 * @param {string} prefix
 * @param {import('node:perf_hooks').RecordableHistogram} h
 */
export function rttFigures(prefix, h) {
  const ns = { mean: h.mean, sd: h.stddev, p50: h.percentile(50), p90: h.percentile(90), p99: h.percentile(99), p999: h.percentile(99.9), max: h.max };
  return Object.fromEntries(Object.entries(ns).map(([name, value]) => [`${prefix}_${name}_us`, value / 1000]));
}

/** The columns of rttFigures(prefix). @param {string} prefix */
export const rttColumns = (prefix) => ['mean', 'sd', 'p50', 'p90', 'p99', 'p999', 'max'].map((name) => `${prefix}_${name}_us`);

/**
 * The columns of unitFigures per unit that follow a workload's own: CPU per unit of client, server (and nginx), the
 * event-loop utilisations (the client's only where the server is not Node: redis, postgres), then mechanismColumns.
 * @param {string} per
 */
export function cpuColumns(per, { proxy = false, serverElu = true } = {}) {
  return [`client_cpu_us_per_${per}`, `server_cpu_us_per_${per}`, ...(proxy ? [`proxy_cpu_us_per_${per}`] : []),
    'client_elu', ...(serverElu ? ['server_elu'] : []), ...mechanismColumns(per, { proxy })];
}

/**
 * The figures every workload names after its unit, of a lane's totals or one block: count, elapsed time, rate, CPU per
 * unit of client, server (and proxy), both event-loop utilisations, mechanism figures per unit and where the ends ran.
 * Keys a workload does not declare (proxy CPU outside `proxy`, stream's per-chunk CPU) are left out by its columns.
 * @param {import('../client/blocks.js').Totals | import('../client/blocks.js').Block} x
 * @param {{ count: string, rate: string, per: string }} names e.g. packets, msgs_per_s, msg
 */
export function unitFigures(x, { count, rate, per }) {
  const perUnit = (/** @type {number | null} */ us) => (us === null ? null : us / x.units);
  return {
    [count]: x.units,
    elapsed_ms: x.elapsedMs,
    [rate]: x.units / (x.elapsedMs / 1000),
    [`client_cpu_us_per_${per}`]: x.cpuUs / x.units,
    [`server_cpu_us_per_${per}`]: perUnit(x.serverCpuUs),
    [`proxy_cpu_us_per_${per}`]: perUnit(x.proxyCpuUs),
    client_elu: x.elu,
    server_elu: x.serverElu,
    ...mechanismFigures(x, per),
    // where a lane's ends ran (lib/client/blocks.js): of a lane's totals only, nothing for a block
    ...('sameCpuShare' in x ? { same_cpu_share: x.sameCpuShare, client_cpus: x.clientCpus.join(' '), server_cpus: x.serverCpus.join(' ') } : {}),
  };
}

/**
 * A closed-loop block of `n` units: `loops` loops at once (fewer when n is smaller), each starting its next `batch`
 * units (fewer at the end) when its last are done; a failure (`failed()`) stops each loop before its next.
 * @param {number} n
 * @param {number} loops
 * @param {(loop: number, units: number) => Promise<void>} unit
 * @param {() => Error | undefined} failed
 * @param {number} [batch] units a loop does at a time (redis's --batch)
 * @returns {Promise<import('../client/blocks.js').BlockTimes>}
 */
export async function loopBlock(n, loops, unit, failed, batch = 1) {
  let next = 0;
  const start = performance.now();
  const loop = async (/** @type {number} */ j) => {
    while (next < n) {
      const failure = failed();
      if (failure) throw failure;
      const units = Math.min(batch, n - next);
      next += units;
      await unit(j, units);
    }
  };
  await Promise.all(Array.from({ length: Math.min(loops, Math.ceil(n / batch)) }, (_, j) => loop(j)));
  return { start, end: performance.now() };
}

/**
 * A trial's lanes, one per target over its load (lib/client/http-load.js, redis-load.js; connect's connector, postgres's
 * querier, stream's sender, echo's pipelines), opened one target at a time, then measured by measureLanes, within the
 * trial's hard limit and its abort: either fails what is in flight in every lane opened, or the opening under way once
 * it is done. A load's other properties are its lane's (a message transport's probe …); with `tally`, each measured
 * block's report goes to it (a lane's histogram is given to those only). The loads are closed however the trial ends.
 * @template {{ block: (n: number, histogram?: import('node:perf_hooks').RecordableHistogram) => Promise<any>, close?: () => Promise<unknown>, abort?: (error: Error) => void }} D
 * @param {import('./workload.js').Workload} workload
 * @param {import('./workload.js').TrialSpec} spec
 * @param {import('./workload.js').TrialContext} context
 * @param {(target: import('../client/transport.js').Target, i: number) => D | Promise<D>} loadOf
 * @param {(lanes: Lane[]) => Parameters<typeof measureLanes>[4]} howOf
 * @param {(t: Awaited<ReturnType<D['block']>>, lane: number) => void} [tally]
 * @returns {Promise<import('./workload.js').TrialResult>}
 */
export async function measureLoads(workload, spec, context, loadOf, howOf, tally) {
  const ms = (/** @type {any} */ a) => ('ms' in a ? a.ms : 0);
  const maxMs = spec.maxMs ?? (ms(spec.measure) * 2 + ms(spec.warmup)) * spec.targets.length + 600_000;
  /** @type {(Lane & { load: D })[]} */
  const lanes = [];
  /** @type {RunError | undefined} */
  let failure;
  const stop = (/** @type {RunError} */ error) => {
    failure ??= error;
    for (const lane of lanes) lane.abort(error);
  };
  const timer = setTimeout(() => stop(new RunError(`trial exceeded its limit of ${maxMs / 1000} s`, 'ERR_TIMEOUT')), maxMs);
  const onAbort = () => stop(new RunError('trial aborted', 'ERR_ABORTED'));
  const { signal } = context;
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  try {
    for (const [i, target] of spec.targets.entries()) {
      const load = await loadOf(target, i);
      lanes.push({
        ...load, target, load,
        histogram: createHistogram(HISTOGRAM),
        block: tally ? async (n, histogram) => {
          const t = await load.block(n, histogram);
          if (histogram) tally(t, i);
          return t;
        } : (n, histogram) => load.block(n, histogram),
        // a load without abort (http's) is closed: what is in flight fails
        abort: (error) => (load.abort ? load.abort(error) : void load.close?.().catch(() => {})),
      });
      if (failure) throw failure;
    }
    return await measureLanes(workload, spec, context, lanes, howOf(lanes));
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    await Promise.all(lanes.map((lane) => lane.load.close?.().catch(() => {})));
  }
}

/** The mechanism counters, as column stems and in words (lib/core/counters.js). */
const KINDS = /** @type {const} */ ({ vcsw: 'voluntary context switches', ivcsw: 'involuntary context switches', reads: 'read calls', writes: 'write calls' });
/**
 * Whose counters, by column prefix, with the Mechanism key of lib/client/blocks.js and the counters shown. nginx reads
 * with recv(), which syscr does not count (0.5 of its 2.5 read calls per proxied request here, strace -c): no nginx reads column.
 */
const SIDES = /** @type {const} */ ({
  client: { key: 'client', kinds: ['vcsw', 'ivcsw', 'reads', 'writes'] },
  server: { key: 'server', kinds: ['vcsw', 'ivcsw', 'reads', 'writes'] },
  nginx: { key: 'proxy', kinds: ['vcsw', 'ivcsw', 'writes'] },
});

/**
 * A workload's mechanism columns per unit (`client_vcsw_per_msg` …): client, server, and nginx before a proxy.
 * @param {string} per the unit in column names: msg, chunk, conn, req
 */
export function mechanismColumns(per, { proxy = false } = {}) {
  const sides = Object.entries(SIDES).filter(([side]) => proxy || side !== 'nginx');
  return sides.flatMap(([side, { kinds }]) => kinds.map((kind) => `${side}_${kind}_per_${per}`));
}

/**
 * The mechanism figures of a lane's totals or one block, per unit; null where not measured (no probe, no /proc/PID/io).
 * @param {import('../client/blocks.js').Totals | import('../client/blocks.js').Block} x
 * @param {string} per
 */
function mechanismFigures(x, per) {
  /** @type {Record<string, number | null>} */
  const figures = {};
  for (const [side, { key, kinds }] of Object.entries(SIDES)) {
    const counters = x.counters[key];
    for (const kind of kinds) {
      const count = counters ? counters[kind] : null;
      figures[`${side}_${kind}_per_${per}`] = count === null || !(x.units > 0) ? null : count / x.units;
    }
  }
  return figures;
}

/**
 * The mechanism figures a workload summarises, as its `summary` declares figures.
 * @param {string} per the unit in column names: msg
 * @param {string} noun the unit in words: message
 * @returns {Record<string, import('./workload.js').Figure>}
 */
export function mechanismSummary(per, noun, { proxy = false } = {}) {
  return Object.fromEntries(mechanismColumns(per, { proxy }).map((column) => {
    const [side, kind] = /** @type {[string, keyof typeof KINDS]} */ (column.split('_'));
    return [column, { label: `${side} ${KINDS[kind]} per ${noun}`, short: `${side} ${kind}/${per}`, unit: `${kind}/${per}`, better: 'lower', mechanism: true }];
  }));
}

/**
 * A trial's lanes measured in paired blocks (lib/client/blocks.js), as rows: one per lane (its totals, `blocks`,
 * `block_<units>` and `extra`) and one per measured block; a context that can warn hears when --duration cannot hold
 * the fewest blocks (runBlocks' onPlan).
 * @param {import('./workload.js').Workload} workload
 * @param {import('./workload.js').TrialSpec} spec
 * @param {import('./workload.js').TrialContext} context
 * @param {import('../client/blocks.js').Lane[]} lanes
 * @param {object} how
 * @param {number} how.minUnits a block holds at least this many units
 * @param {string} how.units what a block counts (packets), as its column `block_<units>` and the warning name it
 * @param {string} how.floor where minUnits comes from, for the warning
 * @param {(x: import('../client/blocks.js').Totals | import('../client/blocks.js').Block) => Record<string, unknown>} how.figures
 *   the columns of a lane's totals or of one block
 * @param {(totals: import('../client/blocks.js').Totals, lane: number) => Record<string, unknown>} [how.extra] a lane's columns beyond a block's
 * @returns {Promise<import('./workload.js').TrialResult>}
 */
async function measureLanes(workload, spec, context, lanes, { minUnits, units, floor, figures, extra }) {
  const [{ runBlocks }, { overrunWarning }] = await Promise.all([import('../client/blocks.js'), import('../client/block-plan.js')]);
  const measure = toAmount(spec.measure);
  const warn = context.warn;
  const { totals, blocks, blockUnits } = await runBlocks(lanes, {
    measure, warmup: toAmount(spec.warmup), minUnits, blockMs: spec.blockMs, test: spec.test,
    probe: context.probe, signal: context.signal, control: context.control, name: workload.name,
    onPlan: warn && ((plan) => {
      const line = overrunWarning(plan, { measure, units, floor });
      if (line) warn(line);
    }),
  });
  return {
    records: totals.map((t, i) => ({
      workload: workload.name, transport: lanes[i].target.transport, size_bytes: spec.size, depth: spec.depth,
      ...figures(t),
      blocks: t.blocks,
      [`block_${units}`]: blockUnits,
      ...extra?.(t, i),
    })),
    blocks: blocks.map((b) => ({ transport: b.transport, block: b.block, ...figures(b) })),
  };
}
