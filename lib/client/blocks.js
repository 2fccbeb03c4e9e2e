/**
 * Paired blocks: how every workload measures its lanes (one connection, pool
 * or loop per target: TCP, UDS and any other transport to the same server,
 * or one of them).
 *
 * A lane's block does a given number of units of work (echoed packets,
 * streamed chunks, connections, requests) and ends when the last is done,
 * so nothing is in flight at its edges and its wall time, client CPU, server
 * CPU and both event-loop utilisations cover exactly its units. Blocks
 * alternate between lanes, A B B A A B … (with three, A B C C B A A B C …,
 * so each lane's blocks sit next to every other's alike): paired blocks a few milliseconds
 * apart share the process's CPU placement, JIT state and the machine's
 * drift, which is what makes their ratio precise.
 *
 * tinybench runs each phase: the warmup, then the measured blocks, each an
 * iteration loop with a budget of wall time (a duration) or of iterations (a
 * count) and an abort signal; a failed block is its errored state. Block
 * length: at least the workload's `minUnits` and at least `blockMs` at the
 * slower lane's warmup rate. A timed phase runs at least MIN_BLOCKS blocks
 * per lane. With one lane and a count (the 2014 preset), the measured phase
 * is one block. Server snapshots are taken at every block boundary, outside
 * the timed window; a missing one fails the trial. The client's counters
 * (context switches, read and write calls: lib/core/counters.js) are read
 * right before and after each block, like its CPU; the server's (and the
 * proxy's) come with its snapshots, so they also hold the control channel's
 * exchange at each boundary: a wake-up and a write of the server's reply.
 */
import { performance } from 'node:perf_hooks';
import { Bench } from 'tinybench';
import { addCounters, diffCounters, readOwnCounters } from '../core/counters.js';
import { RunError } from '../core/errors.js';
import { diffServerStats } from '../fixture/server-stats.js';
import { planMeasure, planTrial, watchFirstBlocks } from './block-plan.js';

/** @type {import('../core/counters.js').Counters} */
const ZERO = { vcsw: 0, ivcsw: 0, reads: 0, writes: 0 };

/** Block length to aim for, at the slower lane's rate. */
const DEFAULT_BLOCK_MS = 10;
/** A timed measured phase runs at least this many blocks per lane, however long they are. */
export const MIN_BLOCKS = 8;
/**
 * A timed warmup runs at least this many blocks per lane: the first block
 * after connecting is slow (at 64 KiB × 16 echo it took 1.2–2.2× the next
 * ones here), and one warmup block left the first measured one slow too.
 */
export const MIN_WARMUP_BLOCKS = 3;

/**
 * @typedef {{ count: number } | { ms: number }} Amount a count of units (packets, chunks, connections, requests) or a duration
 *
 * @typedef {object} BlockTimes what a lane's block reports
 * @property {number} start performance.now() ms at the block's start (the receiver's, where it counts)
 * @property {number} end ms at its end
 * @property {number} [bytes] payload bytes the block moved, where the workload counts them
 *
 * @typedef {object} Lane one target's connection(s)
 * @property {import('./transport.js').Target} target
 * @property {(units: number, histogram?: import('node:perf_hooks').RecordableHistogram) => Promise<BlockTimes>} block
 * @property {(error: Error) => void} abort fail what is in flight
 * @property {import('node:perf_hooks').RecordableHistogram} [histogram] per-unit times in ns, of the measured blocks
 * @property {ServerProbe} [probe] the lane's own server (a message transport's echo peer), in place of the shared one
 * @property {boolean} [sharesProcess] its server runs in this process (a worker thread): the client's CPU and
 *   counters are the process's less the server's
 * @property {boolean} [countsReads] false where /proc/PID/io does not count the channel's read calls (recvmsg):
 *   both sides' read figures are null
 *
 * @typedef {{ snapshot: () => Promise<import('../fixture/server-stats.js').ServerStats> }} ServerProbe
 *
 * @typedef {import('../core/counters.js').Counters} Counters
 *
 * @typedef {object} Mechanism what the processes did during a block: context switches, read and write calls
 * @property {Counters} client
 * @property {Counters | null} server null without a probe
 * @property {Counters | null} proxy null unless the fixture has a proxy
 *
 * @typedef {object} Totals a lane's measured blocks summed
 * @property {number} units
 * @property {number} blocks
 * @property {number} bytes
 * @property {number} elapsedMs
 * @property {number} cpuUs client CPU
 * @property {number | null} serverCpuUs null without a probe
 * @property {number | null} proxyCpuUs null unless the fixture has a proxy
 * @property {number} elu client event-loop utilisation over the blocks
 * @property {number | null} serverElu
 * @property {Mechanism} counters
 *
 * @typedef {object} Block one measured block, before a workload names its columns
 * @property {string} transport tcp, uds, uds-abstract … (lib/transports/)
 * @property {number} block position among the trial's measured blocks, from 0
 * @property {number} units
 * @property {number} bytes
 * @property {number} elapsedMs
 * @property {number} cpuUs
 * @property {number | null} serverCpuUs
 * @property {number | null} proxyCpuUs
 * @property {number} elu
 * @property {number | null} serverElu
 * @property {Mechanism} counters
 */

/**
 * @param {Lane[]} lanes
 * @param {object} options
 * @param {Amount} options.measure per lane
 * @param {Amount} options.warmup per lane
 * @param {number} options.minUnits a block holds at least this many units
 * @param {number} [options.blockMs] block length to aim for at the slower lane's warmup rate
 * @param {ServerProbe} [options.probe]
 * @param {AbortSignal} [options.signal]
 * @param {string} [options.name] the tinybench task's name
 * @param {(plan: import('./block-plan.js').TrialPlan) => void} [options.onPlan] once every lane has run a block:
 *   the trial's plan at those blocks' rates (lib/client/block-plan.js), to say at once what --duration cannot hold
 * @returns {Promise<{ totals: Totals[], blocks: Block[], blockUnits: number }>} totals in the order of lanes
 */
export async function runBlocks(lanes, { measure, warmup, minUnits, blockMs = DEFAULT_BLOCK_MS, probe, signal, name = 'blocks', onPlan }) {
  const rate = lanes.map(() => NaN);
  const left = lanes.map(() => 0);
  const firstBlocks = watchFirstBlocks(lanes.length, (rates) => onPlan?.(planTrial({ warmup, measure, rates, minUnits, blockMs, minBlocks: MIN_BLOCKS, minWarmupBlocks: MIN_WARMUP_BLOCKS })));

  // warmup: blocks of minUnits (fewer if the warmup is a smaller count)
  const hasWarmup = 'count' in warmup ? warmup.count > 0 : warmup.ms > 0;
  if (hasWarmup) {
    const warmBlock = 'count' in warmup ? Math.min(minUnits, warmup.count) : minUnits;
    left.fill('count' in warmup ? warmup.count : Infinity);
    await runPhase(lanes.length, {
      ...budget(warmup, warmBlock, MIN_WARMUP_BLOCKS),
      name, signal,
      block: async (i) => {
        const n = Math.min(warmBlock, left[i]);
        const t = await lanes[i].block(n);
        left[i] -= n;
        rate[i] = n / (t.end - t.start);
        firstBlocks(i, n, t.end - t.start);
        return t.end - t.start;
      },
    });
  }

  // measured blocks, all of one length
  const { blockUnits } = planMeasure({ amount: measure, rates: rate, minUnits, blockMs, minBlocks: MIN_BLOCKS });
  left.fill('count' in measure ? measure.count : Infinity);
  /** @type {Totals[]} */
  const totals = lanes.map((lane) => ({
    units: 0, blocks: 0, bytes: 0, elapsedMs: 0, cpuUs: 0, serverCpuUs: (lane.probe ?? probe) ? 0 : null, proxyCpuUs: null, elu: 0, serverElu: (lane.probe ?? probe) ? 0 : null,
    counters: /** @type {Mechanism} */ ({ client: { vcsw: 0, ivcsw: 0, reads: 0, writes: 0 }, server: null, proxy: null }),
  }));
  const elu = lanes.map(() => ({ active: 0, idle: 0 }));
  const serverElu = lanes.map(() => ({ active: 0, idle: 0 }));
  /** @type {Block[]} */
  const blocks = [];
  const snapshot = async (/** @type {ServerProbe | undefined} */ from) => {
    if (!from) return undefined;
    try {
      return await from.snapshot();
    } catch (error) {
      throw new RunError(`no server stats at a block boundary (${/** @type {Error} */ (error).message}); the server's CPU cannot be charged`, 'ERR_SERVER_STATS');
    }
  };
  // the shared server's snapshots chain, one per boundary; a lane's own server is asked at both edges of its blocks
  let serverMark = await snapshot(probe);
  await runPhase(lanes.length, {
    ...budget(measure, blockUnits, MIN_BLOCKS),
    name, signal,
    block: async (i) => {
      const n = Math.min(blockUnits, left[i]);
      const own = lanes[i].probe;
      if (!own && !serverMark) serverMark = await snapshot(probe); // after a lane with its own server
      const s0 = own ? await snapshot(own) : serverMark;
      const counters0 = readOwnCounters();
      const cpu0 = process.cpuUsage();
      const elu0 = performance.eventLoopUtilization();
      const t = await lanes[i].block(n, lanes[i].histogram);
      const cpu = process.cpuUsage(cpu0);
      const e = performance.eventLoopUtilization(elu0);
      let client = diffCounters(counters0, readOwnCounters());
      const s1 = await snapshot(own ?? probe);
      serverMark = own ? undefined : s1;
      const server = s0 && s1 ? diffServerStats(s0, s1) : undefined;
      const elapsedMs = t.end - t.start;
      firstBlocks(i, n, elapsedMs);
      let cpuUs = cpu.user + cpu.system;
      if (lanes[i].sharesProcess && server) {
        cpuUs = Math.max(0, cpuUs - server.cpu_us);
        if (server.counters) client = lessCounters(client, server.counters);
      }
      if (lanes[i].countsReads === false) {
        client = { ...client, reads: null };
        if (server?.counters) server.counters = { ...server.counters, reads: null };
      }
      left[i] -= n;
      const tot = totals[i];
      tot.units += n;
      tot.blocks += 1;
      tot.bytes += t.bytes ?? 0;
      tot.elapsedMs += elapsedMs;
      tot.cpuUs += cpuUs;
      elu[i].active += e.active;
      elu[i].idle += e.idle;
      /** @type {Mechanism} */
      const counters = { client, server: server?.counters ?? null, proxy: server?.proxy_counters ?? null };
      tot.counters = {
        client: addCounters(tot.counters.client, client),
        server: counters.server && (tot.blocks === 1 || tot.counters.server) ? addCounters(tot.counters.server ?? ZERO, counters.server) : null,
        proxy: counters.proxy && (tot.blocks === 1 || tot.counters.proxy) ? addCounters(tot.counters.proxy ?? ZERO, counters.proxy) : null,
      };
      if (server) {
        tot.serverCpuUs = /** @type {number} */ (tot.serverCpuUs) + server.cpu_us;
        if (server.proxy_cpu_us !== null) tot.proxyCpuUs = (tot.proxyCpuUs ?? 0) + server.proxy_cpu_us;
        serverElu[i].active += server.elu_active_ms;
        serverElu[i].idle += server.elu_idle_ms;
      }
      blocks.push({
        transport: lanes[i].target.transport,
        block: blocks.length,
        units: n,
        bytes: t.bytes ?? 0,
        elapsedMs,
        cpuUs,
        serverCpuUs: server ? server.cpu_us : null,
        proxyCpuUs: server ? server.proxy_cpu_us : null,
        elu: e.utilization,
        serverElu: server ? server.elu : null,
        counters,
      });
      return elapsedMs;
    },
  });
  const ratio = (/** @type {{ active: number, idle: number }} */ x) => (x.active + x.idle > 0 ? x.active / (x.active + x.idle) : 0);
  totals.forEach((t, i) => {
    t.elu = ratio(elu[i]);
    if (t.serverElu !== null) t.serverElu = ratio(serverElu[i]);
  });
  return { totals, blocks, blockUnits };
}

/**
 * A process's counters less one of its threads' (never below 0), null where either is unknown.
 * @param {Counters} whole
 * @param {Counters} part
 * @returns {Counters}
 */
function lessCounters(whole, part) {
  const less = (/** @type {number | null} */ a, /** @type {number | null} */ b) => (a === null || b === null ? null : Math.max(0, a - b));
  return { vcsw: Math.max(0, whole.vcsw - part.vcsw), ivcsw: Math.max(0, whole.ivcsw - part.ivcsw), reads: less(whole.reads, part.reads), writes: less(whole.writes, part.writes) };
}

/**
 * tinybench's budget for a phase: its wall time, or the iterations that hold its units.
 * @param {Amount} amount per lane
 * @param {number} blockUnits
 * @param {number} [minBlocks] with a duration, at least this many iterations
 */
export function budget(amount, blockUnits, minBlocks = 1) {
  return 'ms' in amount ? { time: amount.ms, iterations: minBlocks } : { time: 0, iterations: Math.ceil(amount.count / blockUnits) };
}

/**
 * Run one phase as a tinybench task: each iteration is one block per lane,
 * in lane order on even iterations (A B C) and reversed on odd ones (C B A). The budget is wall
 * time (`time`, the mean per lane) or `iterations`.
 * @param {number} lanes
 * @param {{ time: number, iterations: number, name: string, signal?: AbortSignal, block: (lane: number) => Promise<number> }} phase
 */
async function runPhase(lanes, { time, iterations, name, signal, block }) {
  const forward = [...Array(lanes).keys()];
  const reversed = [...forward].reverse();
  let k = 0;
  const bench = new Bench({ name, warmup: false, time, iterations, signal });
  bench.add('blocks', async () => {
    let spent = 0;
    for (const i of k++ % 2 === 0 ? forward : reversed) spent += await block(i);
    return { overriddenDuration: spent, overriddenIterationCost: spent / lanes };
  }, { async: true });
  await bench.run();
  const result = bench.tasks[0].result;
  if (result.state === 'errored') throw result.error;
  if (result.state === 'aborted' || result.state === 'aborted-with-statistics') throw new RunError('trial aborted', 'ERR_ABORTED');
  if (result.state !== 'completed') throw new RunError(`measurement ${result.state}`, 'ERR_INTERNAL');
}
