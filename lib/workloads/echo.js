/**
 * The echo workload: pipelined packets of one size through an echo server,
 * every byte verified, measured in blocks that alternate between transports.
 *
 * One trial holds one connection per target (TCP and UDS to the same server,
 * or one of them) and measures them in blocks: A B B A A B … Each block sends
 * the same number of packets on one connection and ends when the last is
 * back, so nothing is in flight at its edges and its wall time, client CPU,
 * server CPU and both event-loop utilisations cover exactly its packets.
 * Paired blocks a few milliseconds apart share the process's CPU placement,
 * JIT state and the machine's drift, which is what makes their ratio precise.
 *
 * tinybench runs each phase: the warmup, then the measured blocks, each an
 * iteration loop with a budget of wall time (--duration, --warmup T) or of
 * iterations (--packets, --warmup N) and an abort signal; a failed block is
 * its errored state. Block length: at least FILL_FACTOR × depth packets, so
 * filling and draining the pipe (about one round trip, the time of `depth`
 * packets by Little's law) costs under 1 % of a block, and at least
 * `blockMs` at the slower transport's warmup rate. A timed phase runs at
 * least MIN_BLOCKS blocks per connection, so a trial of large packets (a
 * 64 KiB × 16 block takes ~70 ms) still has pairs enough to average. With
 * one target and a packet count (the 2014 preset), the measured phase is one
 * block.
 */
import { createHistogram, performance } from 'node:perf_hooks';
import { Bench } from 'tinybench';
import { RunError } from '../errors.js';
import { createPayloads } from '../payload.js';
import { createPipeline, readGreeting } from '../pipeline.js';
import { createRecord } from '../record.js';
import { GREETING, diffServerStats } from '../server.js';
import { connect } from '../transport.js';

/** A block holds at least this many pipelines-full of packets. */
export const FILL_FACTOR = 100;
/** Block length to aim for, at the slower transport's rate. */
export const DEFAULT_BLOCK_MS = 10;
/** A timed (--duration) measured phase runs at least this many blocks per connection, however long they are. */
export const MIN_BLOCKS = 8;
/**
 * A timed warmup runs at least this many blocks per connection: the first
 * block after connecting is slow (at 64 KiB × 16 it took 1.2–2.2× the next
 * ones here), and one warmup block left the first measured one slow too.
 */
export const MIN_WARMUP_BLOCKS = 3;

/**
 * @typedef {{ packets: number } | { ms: number }} Amount a packet count or a duration
 *
 * @typedef {object} EchoSpec
 * @property {'echo'} workload
 * @property {import('../transport.js').Target[]} targets one or two; blocks start with targets[0] (A B B A …)
 * @property {number} size bytes per packet
 * @property {number} depth packets in flight
 * @property {Amount} measure per target
 * @property {Amount} warmup per target
 * @property {number | string} seed
 * @property {boolean} noDelay TCP_NODELAY (TCP only)
 * @property {number} timeoutMs stall timeout
 * @property {number} [maxMs] hard limit for the whole trial (default: the times asked for + 10 min)
 * @property {boolean} [greeting] expect the 2014 greeting first
 * @property {number} [blockMs] block length to aim for
 *
 * @typedef {{ snapshot: () => Promise<import('../server.js').ServerStats> }} ServerProbe
 *
 * @typedef {object} BlockRow one measured block
 * @property {'tcp' | 'uds'} transport
 * @property {number} block position among the trial's measured blocks, from 0
 * @property {number} packets
 * @property {number} elapsed_ms
 * @property {number} msgs_per_s
 * @property {number} client_cpu_us_per_msg
 * @property {number | null} server_cpu_us_per_msg
 * @property {number} client_elu
 * @property {number | null} server_elu
 *
 * @typedef {object} TrialResult
 * @property {import('../record.js').TrialRecord[]} records one per target, in the order of spec.targets
 * @property {BlockRow[]} blocks
 */

/**
 * Figures summed over a connection's measured blocks.
 * @typedef {object} Totals
 * @property {number} packets
 * @property {number} blocks
 * @property {number} elapsedMs
 * @property {number} cpuUs
 * @property {number} serverCpuUs
 * @property {{ active: number, idle: number }} elu
 * @property {{ active: number, idle: number }} serverElu
 */

/**
 * @param {EchoSpec} spec
 * @param {{ probe?: ServerProbe, signal?: AbortSignal }} [context]
 * @returns {Promise<TrialResult>}
 */
export async function runEcho(spec, { probe, signal } = {}) {
  const { size, depth, measure, warmup } = spec;
  const payloads = createPayloads(size, spec.seed, depth); // outside anything timed
  /** @type {{ target: import('../transport.js').Target, socket: import('node:net').Socket, pipeline: import('../pipeline.js').Pipeline, histogram: import('node:perf_hooks').RecordableHistogram, rate: number, left: number, totals: Totals }[]} */
  const conns = [];
  const maxMs = spec.maxMs ?? ('ms' in measure ? measure.ms : 0) * spec.targets.length * 2 + ('ms' in warmup ? warmup.ms : 0) * spec.targets.length + 600_000;
  let expired = false;
  const deadline = setTimeout(() => {
    expired = true;
    for (const c of conns) c.pipeline.abort(new RunError(`trial exceeded its limit of ${maxMs / 1000} s`, 'ERR_TIMEOUT'));
  }, maxMs);
  const onAbort = () => {
    for (const c of conns) c.pipeline.abort(new RunError('trial aborted', 'ERR_ABORTED'));
  };
  signal?.addEventListener('abort', onAbort, { once: true });

  try {
    for (const target of spec.targets) {
      /** @type {import('../transport.js').Reader} */
      const reader = { fn: () => {} };
      const socket = await connect(target, { noDelay: spec.noDelay, timeoutMs: spec.timeoutMs, reader });
      try {
        if (spec.greeting) await readGreeting(socket, GREETING, spec.timeoutMs, reader); // before the pipeline reads
      } catch (error) {
        socket.destroy();
        throw error;
      }
      conns.push({
        target, socket,
        pipeline: createPipeline(socket, { reader, payloads, depth, timeoutMs: spec.timeoutMs }),
        histogram: createHistogram({ lowest: 1, highest: 3_600_000_000_000, figures: 3 }),
        rate: NaN, left: 0,
        totals: { packets: 0, blocks: 0, elapsedMs: 0, cpuUs: 0, serverCpuUs: 0, elu: { active: 0, idle: 0 }, serverElu: { active: 0, idle: 0 } },
      });
      if (expired || signal?.aborted) throw new RunError(expired ? `trial exceeded its limit of ${maxMs / 1000} s` : 'trial aborted', expired ? 'ERR_TIMEOUT' : 'ERR_ABORTED');
    }

    // warmup: blocks of FILL_FACTOR × depth packets (fewer if the warmup is a smaller count)
    const hasWarmup = 'packets' in warmup ? warmup.packets > 0 : warmup.ms > 0;
    if (hasWarmup) {
      const warmBlock = 'packets' in warmup ? Math.min(FILL_FACTOR * depth, warmup.packets) : FILL_FACTOR * depth;
      for (const c of conns) c.left = 'packets' in warmup ? warmup.packets : Infinity;
      await runPhase(conns, {
        ...budget(warmup, warmBlock, MIN_WARMUP_BLOCKS),
        signal,
        block: async (c) => {
          const n = Math.min(warmBlock, c.left);
          const t = await c.pipeline.block(n);
          c.left -= n;
          c.rate = n / (t.end - t.start);
          return t.end - t.start;
        },
      });
    }

    // measured blocks, all of one length
    const slowest = Math.min(...conns.map((c) => c.rate));
    let blockPackets = Math.max(FILL_FACTOR * depth, Number.isFinite(slowest) ? Math.ceil(slowest * (spec.blockMs ?? DEFAULT_BLOCK_MS)) : 0);
    if ('packets' in measure) blockPackets = conns.length === 1 ? measure.packets : Math.min(blockPackets, measure.packets);
    for (const c of conns) c.left = 'packets' in measure ? measure.packets : Infinity;
    /** @type {BlockRow[]} */
    const blocks = [];
    /** @type {import('../server.js').ServerStats | undefined} */
    let serverMark;
    const snapshot = async () => {
      if (!probe) return undefined;
      try {
        return await probe.snapshot();
      } catch (error) {
        throw new RunError(`no server stats at a block boundary (${/** @type {Error} */ (error).message}); the server's CPU cannot be charged`, 'ERR_SERVER_STATS');
      }
    };
    serverMark = await snapshot();
    await runPhase(conns, {
      ...budget(measure, blockPackets, MIN_BLOCKS),
      signal,
      block: async (c) => {
        const n = Math.min(blockPackets, c.left);
        const s0 = serverMark;
        const cpu0 = process.cpuUsage();
        const elu0 = performance.eventLoopUtilization();
        const t = await c.pipeline.block(n, c.histogram);
        const cpu = process.cpuUsage(cpu0);
        const elu = performance.eventLoopUtilization(elu0);
        const s1 = await snapshot();
        serverMark = s1;
        const server = s0 && s1 ? diffServerStats(s0, s1) : undefined;
        const elapsedMs = t.end - t.start;
        const cpuUs = cpu.user + cpu.system;
        c.left -= n;
        const tot = c.totals;
        tot.packets += n;
        tot.blocks += 1;
        tot.elapsedMs += elapsedMs;
        tot.cpuUs += cpuUs;
        tot.elu.active += elu.active;
        tot.elu.idle += elu.idle;
        if (server) {
          tot.serverCpuUs += server.cpu_us;
          tot.serverElu.active += server.elu_active_ms;
          tot.serverElu.idle += server.elu_idle_ms;
        }
        blocks.push({
          transport: c.target.transport,
          block: blocks.length,
          packets: n,
          elapsed_ms: elapsedMs,
          msgs_per_s: n / (elapsedMs / 1000),
          client_cpu_us_per_msg: cpuUs / n,
          server_cpu_us_per_msg: server ? server.cpu_us / n : null,
          client_elu: elu.utilization,
          server_elu: server ? server.elu : null,
        });
        return elapsedMs;
      },
    });
    for (const c of conns) c.pipeline.close();
    return { records: conns.map((c) => toRecord(spec, c.target.transport, c.totals, c.histogram, blockPackets, Boolean(probe))), blocks };
  } finally {
    clearTimeout(deadline);
    signal?.removeEventListener('abort', onAbort);
    for (const c of conns) c.socket.destroy();
  }
}

/**
 * tinybench's budget for a phase: its wall time, or the iterations that hold its packets.
 * @param {Amount} amount per connection
 * @param {number} blockPackets
 * @param {number} [minBlocks] with a duration, at least this many iterations
 */
export function budget(amount, blockPackets, minBlocks = 1) {
  return 'ms' in amount ? { time: amount.ms, iterations: minBlocks } : { time: 0, iterations: Math.ceil(amount.packets / blockPackets) };
}

/**
 * Run one phase as a tinybench task: each iteration is one block per
 * connection, in A B order on even iterations and B A on odd ones. The
 * budget is wall time (`time`, the mean per connection) or `iterations`.
 * @template C
 * @param {C[]} conns
 * @param {{ time: number, iterations: number, signal?: AbortSignal, block: (c: C) => Promise<number> }} phase
 */
async function runPhase(conns, { time, iterations, signal, block }) {
  const reversed = [...conns].reverse();
  let k = 0;
  const bench = new Bench({ name: 'echo', warmup: false, time, iterations, signal });
  bench.add('blocks', async () => {
    let spent = 0;
    for (const c of k++ % 2 === 0 ? conns : reversed) spent += await block(c);
    return { overriddenDuration: spent, overriddenIterationCost: spent / conns.length };
  }, { async: true });
  await bench.run();
  const result = bench.tasks[0].result;
  if (result.state === 'errored') throw result.error;
  if (result.state === 'aborted' || result.state === 'aborted-with-statistics') throw new RunError('trial aborted', 'ERR_ABORTED');
  if (result.state !== 'completed') throw new RunError(`measurement ${result.state}`, 'ERR_INTERNAL');
}

/**
 * The trial record of one connection: its measured blocks summed.
 * @param {EchoSpec} spec
 * @param {'tcp' | 'uds'} transport
 * @param {Totals} t
 * @param {import('node:perf_hooks').RecordableHistogram} h RTTs in ns
 * @param {number} blockPackets
 * @param {boolean} serverOurs
 */
function toRecord(spec, transport, t, h, blockPackets, serverOurs) {
  const seconds = t.elapsedMs / 1000;
  const us = (/** @type {number} */ ns) => ns / 1000;
  const ratio = (/** @type {{ active: number, idle: number }} */ e) => (e.active + e.idle > 0 ? e.active / (e.active + e.idle) : 0);
  return createRecord({
    workload: 'echo',
    transport,
    size_bytes: spec.size,
    depth: spec.depth,
    packets: t.packets,
    blocks: t.blocks,
    block_packets: blockPackets,
    elapsed_ms: t.elapsedMs,
    msgs_per_s: t.packets / seconds,
    mb_per_s: (t.packets * spec.size) / seconds / 1e6,
    rtt_mean_us: us(h.mean),
    rtt_sd_us: us(h.stddev),
    rtt_p50_us: us(h.percentile(50)),
    rtt_p90_us: us(h.percentile(90)),
    rtt_p99_us: us(h.percentile(99)),
    rtt_p999_us: us(h.percentile(99.9)),
    rtt_max_us: us(h.max),
    client_cpu_us_per_msg: t.cpuUs / t.packets,
    server_cpu_us_per_msg: serverOurs ? t.serverCpuUs / t.packets : null,
    client_elu: ratio(t.elu),
    server_elu: serverOurs ? ratio(t.serverElu) : null,
  });
}
