/**
 * The echo workload: pipelined packets of one size through an echo server,
 * every byte verified.
 *
 * tinybench runs the lifecycle (warmup phase, measured phase) with budgets in
 * packets or wall time. Each iteration takes the next batch of `depth`
 * completed packets from the pipeline and returns the batch's mean RTT as
 * `overriddenDuration` and the wall time the batch covered (arrival of its
 * last byte minus that of the previous batch) as `overriddenIterationCost`,
 * so --duration and --warmup times are wall time however many packets are in
 * flight. Per-packet RTTs are logged by the pipeline and described by
 * tinybench afterwards (stats.js). Timed: from the arrival of the last warmup
 * packet to the arrival of the last measured packet.
 */
import { performance } from 'node:perf_hooks';
import { Bench } from 'tinybench';
import { RunError } from '../errors.js';
import { createPayloads } from '../payload.js';
import { createPipeline, readGreeting } from '../pipeline.js';
import { createRecord } from '../record.js';
import { GREETING, diffServerStats } from '../server.js';
import { describe } from '../stats.js';
import { connect } from '../transport.js';

/** Safety bound on packets in a --duration trial (16 bytes of log each). */
export const MAX_PACKETS = 20_000_000;

/**
 * @typedef {{ packets: number } | { ms: number }} Amount a packet count or a duration
 *
 * @typedef {object} EchoSpec
 * @property {'echo'} workload
 * @property {import('../transport.js').Target} target
 * @property {number} size bytes per packet
 * @property {number} depth packets in flight
 * @property {Amount} measure
 * @property {Amount} warmup
 * @property {number | string} seed
 * @property {boolean} noDelay TCP_NODELAY (TCP only)
 * @property {number} timeoutMs stall timeout
 * @property {number} [maxMs] hard limit for the whole trial (default: the times asked for + 10 min)
 * @property {boolean} [greeting] expect the 2014 greeting first
 *
 * @typedef {{ snapshot: () => Promise<import('../server.js').ServerStats> }} ServerProbe
 */

/**
 * @param {EchoSpec} spec
 * @param {{ probe?: ServerProbe, signal?: AbortSignal }} [context]
 */
export async function runEcho(spec, { probe, signal } = {}) {
  const { size, depth, measure, warmup } = spec;
  const payloads = createPayloads(size, spec.seed, depth); // outside anything timed
  const socket = await connect(spec.target, { noDelay: spec.noDelay, timeoutMs: spec.timeoutMs });
  if (spec.greeting) {
    try {
      await readGreeting(socket, GREETING, spec.timeoutMs);
    } catch (error) {
      socket.destroy();
      throw error;
    }
  }

  const warmupPackets = 'packets' in warmup ? warmup.packets : undefined;
  const measurePackets = 'packets' in measure ? measure.packets : undefined;
  const limit = warmupPackets !== undefined && measurePackets !== undefined ? warmupPackets + measurePackets : Infinity;
  const pipeline = createPipeline(socket, { payloads, depth, limit, timeoutMs: spec.timeoutMs });

  // hard limit: as given, else the times asked for plus ten minutes
  const maxMs = spec.maxMs ?? ('ms' in measure ? measure.ms : 0) + ('ms' in warmup ? warmup.ms : 0) + 600_000;
  const deadline = setTimeout(() => {
    pipeline.abort(new RunError(`trial exceeded its limit of ${maxMs / 1000} s`, 'ERR_TIMEOUT'));
  }, maxMs);
  const onAbort = () => pipeline.abort(new RunError('trial aborted', 'ERR_ABORTED'));
  signal?.addEventListener('abort', onAbort, { once: true });

  // One tinybench iteration takes the next batch of `depth` packets (one
  // pipeline-full; one packet at depth 1), so tinybench's per-iteration cost
  // is paid once per batch, not once per packet.
  const batch = depth;
  let taken = 0; // packets handed to tinybench so far
  let phaseEnd = warmupPackets ?? Infinity;
  let runStart = 0; // index of the first measured packet
  /** @type {{ cpu: NodeJS.CpuUsage, elu: import('node:perf_hooks').EventLoopUtilization }} */
  let before = { cpu: process.cpuUsage(), elu: performance.eventLoopUtilization() };
  let after = before;
  /** @type {Promise<import('../server.js').ServerStats | undefined> | undefined} */
  let serverBefore;
  /** @type {Promise<import('../server.js').ServerStats | undefined> | undefined} */
  let serverAfter;
  const snapshot = () => probe?.snapshot().catch(() => undefined);

  /** @param {number} end */
  const report = (end) => {
    let rttSum = 0;
    for (let i = taken; i < end; i++) rttSum += pipeline.rtt(i);
    const result = { overriddenDuration: rttSum / (end - taken), overriddenIterationCost: pipeline.arrival(end - 1) - pipeline.arrival(taken - 1) };
    taken = end;
    return result;
  };

  const bench = new Bench({
    name: 'echo',
    warmup: 'packets' in warmup ? warmup.packets > 0 : warmup.ms > 0,
    warmupIterations: 'packets' in warmup ? Math.ceil(warmup.packets / batch) : 1,
    warmupTime: 'ms' in warmup ? warmup.ms : 0,
    iterations: measurePackets !== undefined ? Math.ceil(measurePackets / batch) : 1,
    time: 'ms' in measure ? measure.ms : 0,
  });
  bench.add('echo', () => {
    const end = Math.min(taken + batch, phaseEnd);
    const ready = pipeline.until(end);
    return ready === true ? report(end) : ready.then(() => report(end));
  }, {
    async: true,
    beforeAll(mode) {
      if (mode !== 'run') return;
      runStart = taken;
      phaseEnd = measurePackets !== undefined ? taken + measurePackets : Infinity;
      if (limit === Infinity) pipeline.setLimit(measurePackets !== undefined ? phaseEnd : runStart + MAX_PACKETS);
      serverBefore = snapshot();
      before = { cpu: process.cpuUsage(), elu: performance.eventLoopUtilization() };
    },
    afterAll(mode) {
      if (mode !== 'run') return;
      after = { cpu: process.cpuUsage(), elu: performance.eventLoopUtilization() };
      serverAfter = snapshot();
    },
  });

  try {
    pipeline.start();
    await bench.run();
    const result = bench.tasks[0].result;
    if (result.state === 'errored') throw result.error;
    if (result.state !== 'completed') throw new RunError(`measurement ${result.state}`, 'ERR_ABORTED');
    await pipeline.finish(); // every packet still in flight comes back verified
    const packets = taken - runStart;
    const elapsedMs = pipeline.arrival(taken - 1) - pipeline.arrival(runStart - 1);
    const seconds = elapsedMs / 1000;
    const rtt = describe(pipeline.rtts(runStart, taken)); // per packet, by tinybench
    const [s0, s1] = await Promise.all([serverBefore, serverAfter]);
    const server = s0 && s1 ? diffServerStats(s0, s1) : undefined;
    return createRecord({
      workload: 'echo',
      transport: spec.target.transport,
      size_bytes: size,
      depth,
      packets,
      elapsed_ms: elapsedMs,
      msgs_per_s: packets / seconds,
      mb_per_s: (packets * size) / seconds / 1e6,
      rtt_mean_us: rtt.mean * 1000,
      rtt_sd_us: rtt.sd * 1000,
      rtt_p50_us: rtt.p50 * 1000,
      rtt_p90_us: rtt.p90 * 1000,
      rtt_p99_us: rtt.p99 * 1000,
      rtt_p999_us: rtt.p999 * 1000,
      rtt_max_us: rtt.max * 1000,
      client_cpu_us_per_msg: (after.cpu.user - before.cpu.user + after.cpu.system - before.cpu.system) / packets,
      server_cpu_us_per_msg: server ? server.cpu_us / packets : null,
      client_elu: performance.eventLoopUtilization(after.elu, before.elu).utilization,
      server_elu: server ? server.elu : null,
    });
  } finally {
    clearTimeout(deadline);
    signal?.removeEventListener('abort', onAbort);
    socket.destroy();
  }
}
