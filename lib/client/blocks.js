/**
 * Paired blocks: how every workload measures its lanes (a connection, pool or loop per target). A lane's block does a
 * given number of units and ends when the last is done, so nothing is in flight at its edges and its CPU and event-loop
 * readings cover exactly its units; blocks alternate between lanes, A B B A … (A B C C B A … with three), so that pairs
 * share the machine's drift (docs/method.md#a-sweep-trials-blocks-and-runs). Lanes run in lane processes
 * (lib/trial/lanes.js); tinybench runs each phase; how many blocks: ./block-plan.js. The server's counters come with its
 * snapshots, so they also hold each boundary's control exchange: a wake-up and a write of the server's reply.
 */
import { performance } from 'node:perf_hooks';
import { Bench } from 'tinybench';
import { diffCounters, readOwnCounters, sumCounters } from '../core/counters.js';
import { RunError } from '../core/errors.js';
import { diffServerStats } from '../fixture/server.js';
import { cpuOf } from '../core/placement.js';
import { planMeasure, planTrial } from './block-plan.js';

/** Block length to aim for, at the slower lane's rate. */
const DEFAULT_BLOCK_MS = 10;
/** A timed measured phase runs at least this many blocks per lane, however long they are. */
export const MIN_BLOCKS = 8;
/**
 * A timed warmup runs at least this many blocks per lane: the first block after connecting is slow (at 64 KiB × 16 echo
 * 1.2–2.2× the next ones here), and one warmup block left the first measured one slow too.
 */
export const MIN_WARMUP_BLOCKS = 3;
/** Test mode (sweep --test, a check that the tool works, not figures): at least this many measured blocks per lane, and one warmup block. */
export const TEST_MIN_BLOCKS = 2;

/** @param {boolean} [test] @returns {{ minBlocks: number, minWarmupBlocks: number }} */
const floorsOf = (test) => (test ? { minBlocks: TEST_MIN_BLOCKS, minWarmupBlocks: 1 } : { minBlocks: MIN_BLOCKS, minWarmupBlocks: MIN_WARMUP_BLOCKS });

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
 * @property {number} [serverThread] the thread of its own server that echoes (a worker thread), where it is not the process's main thread
 * @property {ServerProbe} [probe] the lane's own server (a message transport's echo peer), in place of the shared one
 * @property {boolean} [sharesProcess] its server runs in this process (a worker thread): the client's CPU and
 *   counters are the process's less the server's
 * @property {boolean} [countsReads] false where /proc/PID/io does not count the channel's read calls (recvmsg):
 *   both sides' read figures are null
 *
 * @typedef {{ snapshot: () => Promise<import('../fixture/server.js').ServerStats> }} ServerProbe
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
 * @property {number | null} sameCpuShare of the block edges where both ends' CPUs are known, the share where they were one CPU
 * @property {number[]} clientCpus the CPUs the client was seen on at block edges
 * @property {number[]} serverCpus the CPUs the server was seen on
 *
 * @typedef {Omit<Totals, 'blocks' | 'sameCpuShare' | 'clientCpus' | 'serverCpus'> & { transport: string, block: number }} Block
 *   one measured block, before a workload names its columns: its transport, and its position among the trial's measured blocks from 0
 */

/**
 * @typedef {object} LaneSample where a lane's two ends last ran, at one edge of a block (lib/core/placement.js)
 * @property {number | null} client the CPU of the client's thread
 * @property {number | null} server the CPU of the server's thread, null without a probe
 *
 * @typedef {Block & { eluMs: { active: number, idle: number }, serverEluMs: { active: number, idle: number } | null, placement: LaneSample[] }} MeasuredBlock
 *   a block with what its lane's totals are summed from: `placement`, where its ends ran at its two edges
 *
 * @typedef {object} BlockExecutor a lane as the scheduler drives it, here or in a lane process of its own
 * @property {(units: number) => Promise<number>} warm a warmup block; its wall time in ms
 * @property {(units: number, index: number) => Promise<MeasuredBlock>} measure a measured block, the index-th of the trial
 *
 * @typedef {object} BlockPlan what the scheduler needs of a workload
 * @property {Amount} measure per lane
 * @property {Amount} warmup per lane
 * @property {number} minUnits a block holds at least this many units
 * @property {number} [blockMs] block length to aim for at the slower lane's warmup rate
 * @property {boolean} [test] test mode: the smaller floors of TEST_MIN_BLOCKS
 * @property {string} [name] the tinybench task's name
 *
 * @typedef {object} BlockControl the scheduler in another process (lib/trial/lanes.js): this process
 *   holds one lane and runs the blocks it is asked for
 * @property {(plan: BlockPlan, executor: BlockExecutor, onRates: (rates: number[]) => void) => Promise<{ blocks: MeasuredBlock[], blockUnits: number }>} serve
 *   `onRates` is called with every lane's rate where the scheduler sends them (see scheduleBlocks)
 */

/**
 * @param {Lane[]} lanes
 * @param {BlockPlan & { probe?: ServerProbe, signal?: AbortSignal, control?: BlockControl, onPlan?: (plan: import('./block-plan.js').TrialPlan) => void }} options
 *   with `control`, the one lane's blocks are scheduled by another process; `onPlan`, once the warmup is over (without
 *   one, once every lane has run a block): the trial's plan at the rates scheduleBlocks hands over
 *   (lib/client/block-plan.js), to say before the measured blocks what --duration cannot hold
 * @returns {Promise<{ totals: Totals[], blocks: Block[], blockUnits: number }>} totals in the order of lanes
 */
export async function runBlocks(lanes, { measure, warmup, minUnits, blockMs = DEFAULT_BLOCK_MS, test, probe, signal, name = 'blocks', control, onPlan }) {
  const executors = lanes.map((lane) => laneExecutor(lane, probe));
  const plan = { measure, warmup, minUnits, blockMs, test, name };
  const onRates = (/** @type {number[]} */ rates) => onPlan?.(planTrial({ warmup, measure, rates, minUnits, blockMs, ...floorsOf(test) }));
  if (control && lanes.length !== 1) throw new RunError(`a lane process holds one lane, not ${lanes.length}`, 'ERR_INTERNAL');
  /** @type {{ blocks: (MeasuredBlock & { lane?: number })[], blockUnits: number }} */
  const { blocks, blockUnits } = control ? await control.serve(plan, executors[0], onRates) : await scheduleBlocks(executors, { ...plan, signal, onRates });
  const totals = lanes.map((lane, i) => sumBlocks(blocks.filter((b) => (b.lane ?? 0) === i), Boolean(lane.probe ?? probe)));
  return { totals, blocks, blockUnits };
}

/**
 * Warm up, then measure blocks of one length in alternating order, each lane's blocks through its executor.
 * @param {BlockExecutor[]} executors one per lane
 * @param {BlockPlan & { signal?: AbortSignal, onRates?: (rates: number[]) => void }} plan `onRates`: every lane's rate
 *   in units per ms, once: its fastest warmup block's, after the warmup, or without one its first measured block's
 * @returns {Promise<{ blocks: (MeasuredBlock & { lane: number })[], blockUnits: number }>} the measured blocks in the order they ran
 */
export async function scheduleBlocks(executors, { measure, warmup, minUnits, blockMs = DEFAULT_BLOCK_MS, test, signal, name = 'blocks', onRates = () => {} }) {
  const { minBlocks, minWarmupBlocks } = floorsOf(test);
  const rate = executors.map(() => NaN);
  // the rates onRates hears, once: each lane's fastest warmup block after the warmup (its first blocks pay for connecting
  // and for code not yet optimised: the default http run's first ran at a tenth of its measured rate and warned wrongly), else each lane's first
  // measured block where there is no warmup
  const fastest = executors.map(() => NaN);
  let told = false;
  /** @param {number[]} rates */
  const tell = (rates) => {
    if (told || !rates.every((r) => Number.isFinite(r) && r > 0)) return;
    told = true;
    onRates(rates);
  };
  const firstRates = executors.map(() => NaN);
  /** Each lane's first measured block's rate; once every lane has one, they go to `onRates`. @param {number} i @param {number} n @param {number} ms */
  const firstBlocks = (i, n, ms) => {
    if (Number.isNaN(firstRates[i])) firstRates[i] = n / ms;
    if (!firstRates.some(Number.isNaN)) tell(firstRates);
  };

  const warm = planTrial({ warmup, measure, rates: rate, minUnits, blockMs, minBlocks, minWarmupBlocks }).warmup;
  if (warm) {
    await runPhase(executors.length, {
      amount: warmup, blockUnits: warm.blockUnits, minBlocks: minWarmupBlocks, name, signal,
      block: async (i, n) => {
        const ms = await executors[i].warm(n);
        rate[i] = n / ms;
        if (Number.isFinite(rate[i]) && !(rate[i] <= fastest[i])) fastest[i] = rate[i];
        return ms;
      },
    });
    tell(fastest);
  }

  const { blockUnits } = planMeasure({ amount: measure, rates: rate, minUnits, blockMs, minBlocks });
  /** @type {(MeasuredBlock & { lane: number })[]} */
  const blocks = [];
  await runPhase(executors.length, {
    amount: measure, blockUnits, minBlocks, name, signal,
    block: async (i, n) => {
      const block = await executors[i].measure(n, blocks.length);
      firstBlocks(i, n, block.elapsedMs);
      blocks.push({ ...block, lane: i });
      return block.elapsedMs;
    },
  });
  return { blocks, blockUnits };
}

/**
 * A lane of this process as the scheduler drives it. A measured block is framed by server snapshots (the lane's own
 * server's, else the shared one's; a missing one fails the trial), then where each end ran (lib/core/placement.js), then
 * the client's counters (lib/core/counters.js), CPU and event-loop readings, the timed window innermost.
 * @param {Lane} lane
 * @param {ServerProbe} [shared]
 * @returns {BlockExecutor}
 */
function laneExecutor(lane, shared) {
  const from = lane.probe ?? shared;
  return {
    async warm(n) {
      const t = await lane.block(n);
      return t.end - t.start;
    },
    async measure(n, index) {
      const s0 = await snapshot(from);
      const before = sample(s0, lane);
      const counters0 = readOwnCounters();
      const cpu0 = process.cpuUsage();
      const elu0 = performance.eventLoopUtilization();
      const t = await lane.block(n, lane.histogram);
      const cpu = process.cpuUsage(cpu0);
      const e = performance.eventLoopUtilization(elu0);
      let client = diffCounters(counters0, readOwnCounters());
      const s1 = await snapshot(from);
      const after = sample(s1, lane);
      const server = s0 && s1 ? diffServerStats(s0, s1) : undefined;
      let cpuUs = cpu.user + cpu.system;
      if (lane.sharesProcess && server) {
        cpuUs = Math.max(0, cpuUs - server.cpu_us);
        if (server.counters) {
          // the process's counters less its server thread's (never below 0), null where either is unknown
          const less = (/** @type {number | null} */ a, /** @type {number | null} */ b) => (a === null || b === null ? null : Math.max(0, a - b));
          const part = server.counters;
          client = { vcsw: Math.max(0, client.vcsw - part.vcsw), ivcsw: Math.max(0, client.ivcsw - part.ivcsw), reads: less(client.reads, part.reads), writes: less(client.writes, part.writes) };
        }
      }
      if (lane.countsReads === false) {
        client = { ...client, reads: null };
        if (server?.counters) server.counters = { ...server.counters, reads: null };
      }
      return {
        transport: lane.target.transport,
        block: index,
        units: n,
        bytes: t.bytes ?? 0,
        elapsedMs: t.end - t.start,
        cpuUs,
        serverCpuUs: server ? server.cpu_us : null,
        proxyCpuUs: server ? server.proxy_cpu_us : null,
        elu: e.utilization,
        serverElu: server ? server.elu : null,
        counters: { client, server: server?.counters ?? null, proxy: server?.proxy_counters ?? null },
        eluMs: { active: e.active, idle: e.idle },
        serverEluMs: server ? { active: server.elu_active_ms, idle: server.elu_idle_ms } : null,
        placement: [before, after],
      };
    },
  };
}

/** @param {ServerProbe | undefined} from */
async function snapshot(from) {
  if (!from) return undefined;
  try {
    return await from.snapshot();
  } catch (error) {
    throw new RunError(`no server stats at a block boundary (${/** @type {Error} */ (error).message}); the server's CPU cannot be charged`, 'ERR_SERVER_STATS');
  }
}

/**
 * Where the lane's ends last ran: this thread, and the server's (its snapshot's process, or its own server's thread).
 * @param {import('../fixture/server.js').ServerStats | undefined} stats
 * @param {Lane} lane
 * @returns {LaneSample}
 */
function sample(stats, lane) {
  const client = cpuOf('self');
  if (!stats) return { client, server: null };
  return { client, server: cpuOf(stats.pid, lane.serverThread ?? stats.pid) };
}

/**
 * @param {MeasuredBlock[]} blocks
 * @param {boolean} hasServer a probe answered for the lane
 * @returns {Totals}
 */
function sumBlocks(blocks, hasServer) {
  const all = (/** @type {(b: MeasuredBlock) => boolean} */ fn) => blocks.length > 0 && blocks.every(fn);
  const sum = (/** @type {(b: MeasuredBlock) => number} */ fn) => blocks.reduce((a, b) => a + fn(b), 0);
  const share = (/** @type {number} */ active, /** @type {number} */ idle) => (active + idle > 0 ? active / (active + idle) : 0);
  const counters = (/** @type {'client' | 'server' | 'proxy'} */ side) => sumCounters(blocks.map((b) => /** @type {Counters} */ (b.counters[side])));
  const edges = blocks.flatMap((b) => b.placement);
  const known = edges.filter((s) => s.client !== null && s.server !== null);
  /** @param {'client' | 'server'} side */
  const cpus = (side) => /** @type {number[]} */ ([...new Set(edges.map((s) => s[side]))].filter((c) => c !== null)).sort((a, b) => a - b);
  return {
    units: sum((b) => b.units),
    blocks: blocks.length,
    bytes: sum((b) => b.bytes),
    elapsedMs: sum((b) => b.elapsedMs),
    cpuUs: sum((b) => b.cpuUs),
    serverCpuUs: hasServer ? sum((b) => b.serverCpuUs ?? 0) : null,
    proxyCpuUs: blocks.some((b) => b.proxyCpuUs !== null) ? sum((b) => b.proxyCpuUs ?? 0) : null,
    elu: share(sum((b) => b.eluMs.active), sum((b) => b.eluMs.idle)),
    serverElu: hasServer ? share(sum((b) => b.serverEluMs?.active ?? 0), sum((b) => b.serverEluMs?.idle ?? 0)) : null,
    counters: {
      client: counters('client'),
      server: all((b) => b.counters.server !== null) ? counters('server') : null,
      proxy: all((b) => b.counters.proxy !== null) ? counters('proxy') : null,
    },
    sameCpuShare: known.length > 0 ? known.filter((s) => s.client === s.server).length / known.length : null,
    clientCpus: cpus('client'),
    serverCpus: cpus('server'),
  };
}

/**
 * Run one phase as a tinybench task, each iteration one block per lane, A B C on even iterations and C B A on odd ones.
 * The budget is wall time (`time`, the mean per lane) and at least `minBlocks` iterations, or the iterations that hold
 * a count, a lane's last block as many units as the count has left.
 * @param {number} lanes
 * @param {{ amount: Amount, blockUnits: number, minBlocks: number, name: string, signal?: AbortSignal, block: (lane: number, units: number) => Promise<number> }} phase
 */
async function runPhase(lanes, { amount, blockUnits, minBlocks, name, signal, block }) {
  const [time, iterations] = 'ms' in amount ? [amount.ms, minBlocks] : [0, Math.ceil(amount.count / blockUnits)];
  const left = Array.from({ length: lanes }, () => ('ms' in amount ? Infinity : amount.count));
  const forward = [...Array(lanes).keys()];
  const reversed = [...forward].reverse();
  let k = 0;
  const bench = new Bench({ name, warmup: false, time, iterations, signal });
  bench.add('blocks', async () => {
    let spent = 0;
    for (const i of k++ % 2 === 0 ? forward : reversed) {
      const n = Math.min(blockUnits, left[i]);
      left[i] -= n;
      spent += await block(i, n);
    }
    return { overriddenDuration: spent, overriddenIterationCost: spent / lanes };
  }, { async: true });
  await bench.run();
  const result = bench.tasks[0].result;
  if (result.state === 'errored') throw result.error;
  if (result.state === 'aborted' || result.state === 'aborted-with-statistics') throw new RunError('trial aborted', 'ERR_ABORTED');
  if (result.state !== 'completed') throw new RunError(`measurement ${result.state}`, 'ERR_INTERNAL');
}
