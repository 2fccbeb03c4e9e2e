/**
 * The echo workload: pipelined packets of one size through an echo server,
 * every byte verified. tinybench runs the lifecycle (warmup phase, measured
 * phase, abort) and computes the statistics; each tinybench iteration takes
 * one completed packet from the pipeline and reports that packet's own
 * round-trip time as `overriddenDuration`, and the wall time since the
 * previous packet's arrival as `overriddenIterationCost`, so the time budgets
 * of --duration/--warmup are wall time even with many packets in flight.
 */
import { performance } from 'node:perf_hooks';
import { Bench } from 'tinybench';
import { RunError } from '../errors.js';
import { createPayloads } from '../payload.js';
import { createPipeline, readGreeting } from '../pipeline.js';
import { createRecord } from '../record.js';
import { GREETING, diffServerStats } from '../server.js';
import { quantile } from '../stats.js';
import { connect } from '../transport.js';

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
 * @property {number} [maxMs] hard limit for the whole trial
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
  const payloads = createPayloads(size, spec.seed); // outside anything timed
  const socket = await connect(spec.target, { noDelay: spec.noDelay, timeoutMs: spec.timeoutMs });
  if (spec.greeting) await readGreeting(socket, GREETING, spec.timeoutMs);

  const warmupPackets = 'packets' in warmup ? warmup.packets : undefined;
  const measurePackets = 'packets' in measure ? measure.packets : undefined;
  const limit = warmupPackets !== undefined && measurePackets !== undefined ? warmupPackets + measurePackets : Infinity;
  const pipeline = createPipeline(socket, { payloads, depth, limit, timeoutMs: spec.timeoutMs });

  const deadline = setTimeout(() => {
    pipeline.abort(new RunError(`trial exceeded its limit of ${(spec.maxMs ?? 0) / 1000} s`, 'ERR_TIMEOUT'));
  }, spec.maxMs ?? 600_000);
  const onAbort = () => pipeline.abort(new RunError('trial aborted', 'ERR_ABORTED'));
  signal?.addEventListener('abort', onAbort, { once: true });

  let phase = 'warmup';
  let taken = 0;
  let elapsedMs = 0;
  /** @type {{ cpu: NodeJS.CpuUsage, elu: import('node:perf_hooks').EventLoopUtilization }} */
  let before = { cpu: process.cpuUsage(), elu: performance.eventLoopUtilization() };
  let after = before;
  /** @type {Promise<import('../server.js').ServerStats | undefined> | undefined} */
  let serverBefore;
  /** @type {Promise<import('../server.js').ServerStats | undefined> | undefined} */
  let serverAfter;
  const snapshot = () => probe?.snapshot().catch(() => undefined);

  /** @param {import('../pipeline.js').Completion} completion */
  const report = (completion) => {
    taken++;
    if (phase === 'run') elapsedMs += completion.interval_ms;
    return { overriddenDuration: completion.rtt_ms, overriddenIterationCost: completion.interval_ms };
  };

  const bench = new Bench({
    name: 'echo',
    retainSamples: true,
    warmup: 'packets' in warmup ? warmup.packets > 0 : warmup.ms > 0,
    warmupIterations: 'packets' in warmup ? warmup.packets : depth,
    warmupTime: 'ms' in warmup ? warmup.ms : 0,
    iterations: measurePackets ?? 1,
    time: 'ms' in measure ? measure.ms : 0,
  });
  bench.add('echo', () => {
    const next = pipeline.take();
    return next instanceof Promise ? next.then(report) : report(next);
  }, {
    async: true,
    beforeAll(mode) {
      if (mode !== 'run') return;
      if (measurePackets !== undefined && limit === Infinity) pipeline.setLimit(taken + measurePackets);
      phase = 'run';
      serverBefore = snapshot();
      before = { cpu: process.cpuUsage(), elu: performance.eventLoopUtilization() };
    },
    afterAll(mode) {
      if (mode !== 'run') return;
      after = { cpu: process.cpuUsage(), elu: performance.eventLoopUtilization() };
      serverAfter = snapshot();
      phase = 'done';
    },
  });

  try {
    pipeline.start();
    await bench.run();
    const result = bench.tasks[0].result;
    if (result.state === 'errored') throw result.error;
    if (result.state !== 'completed') throw new RunError(`measurement ${result.state}`, 'ERR_ABORTED');
    await pipeline.finish(); // every packet still in flight comes back verified
    const latency = result.latency;
    const packets = latency.samplesCount;
    const seconds = elapsedMs / 1000;
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
      rtt_mean_us: latency.mean * 1000,
      rtt_sd_us: latency.sd * 1000,
      rtt_p50_us: latency.p50 * 1000,
      rtt_p90_us: quantile(/** @type {number[]} */ (latency.samples), 0.9) * 1000,
      rtt_p99_us: latency.p99 * 1000,
      rtt_p999_us: latency.p999 * 1000,
      rtt_max_us: latency.max * 1000,
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
