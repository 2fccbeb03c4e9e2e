/**
 * The echo workload: pipelined packets of one size through an echo server, every byte verified, in blocks alternating
 * between transports (lib/client/blocks.js), each of n packets with up to `depth` in flight. A block holds at least
 * FILL_FACTOR × depth packets, so filling and draining the pipe (about one round trip) costs under 1 % of it
 * (docs/method.md#what-is-timed). A message transport's lane has its own echo peer, one message per packet.
 */
import { ECHO_GREETING } from '../fixture/handlers.js';
import { MAX_DEPTH, MAX_SIZE, checkInFlight } from '../core/limits.js';
import { formatSize } from '../core/units.js';
import { getTransport } from '../transports/index.js';
import { cpuColumns, measureLoads, mechanismSummary, rttColumns, rttFigures, unitFigures } from './common.js';

/** A block holds at least this many pipelines-full of packets. */
export const FILL_FACTOR = 100;

/** @type {import('./workload.js').Workload} */
export const echo = {
  name: 'echo',
  what: 'pipelined packets of one size through an echo server, every echoed byte verified',
  timed: 'a block: from the first write of its packets to the arrival of the last echoed byte, nothing in flight at either edge',
  axes: {
    size: { label: 'packet size', short: 'size', flag: '--size', min: 1, max: MAX_SIZE, fallback: 64, powerOfTwo: true },
    depth: { label: 'packets in flight', short: 'depth', flag: '--depth', min: 1, max: MAX_DEPTH, fallback: 1 },
  },
  check: checkInFlight,
  options: ['greeting'],
  counts: true,
  bytesInFlight: true,
  columns: ['packets', 'blocks', 'block_packets', 'elapsed_ms', 'msgs_per_s', 'mb_per_s', ...rttColumns('rtt'), ...cpuColumns('msg')],
  blockColumns: ['packets', 'elapsed_ms', 'msgs_per_s', ...cpuColumns('msg')],
  table: [['packets', 'packets'], ['msgs/s', 'msgs_per_s'], ['MB/s', 'mb_per_s'], ['rtt mean', 'rtt_mean_us'], ['p50', 'rtt_p50_us'],
    ['p99', 'rtt_p99_us'], ['p99.9', 'rtt_p999_us'], ['max µs', 'rtt_max_us'], ['cpu µs/msg cli', 'client_cpu_us_per_msg'], ['srv', 'server_cpu_us_per_msg']],
  primary: 'msgs_per_s',
  summary: {
    msgs_per_s: { label: 'messages per second', short: 'msgs/s', unit: 'msgs/s', better: 'higher' },
    rtt_p50_us: { label: 'median round-trip time', short: 'RTT p50 µs', unit: 'us', better: 'lower' },
    rtt_p99_us: { label: '99th percentile round-trip time', short: 'RTT p99 µs', unit: 'us', better: 'lower' },
    rtt_mean_us: { label: 'mean round-trip time', short: 'RTT mean µs', unit: 'us', better: 'lower' },
    client_cpu_us_per_msg: { label: 'client CPU per message', short: 'client CPU µs/msg', unit: 'us/msg', better: 'lower' },
    server_cpu_us_per_msg: { label: 'server CPU per message', short: 'server CPU µs/msg', unit: 'us/msg', better: 'lower' },
    ...mechanismSummary('msg', 'message'),
  },
  fixture: { server: 'echo', proxy: false },
  needs: 'messages',
  // the 2014 layout: ms per 100 000 round trips, exactly the elapsed ms when a trial measures 100 000 packets
  wide: { name: 'NAME (ms per 100 000 round trips)', value: (t) => (t.elapsed_ms * 100_000) / t.packets },
  // the 2019 latency test printed the mean RTT / 2 as "one way": that line, at depth 1
  summaryLines(summary) {
    const oneWay = summary.filter((r) => r.metric === 'rtt_mean_us' && r.depth === 1 && !String(r.transport).includes('/'));
    const sizes = [...new Set(oneWay.map((r) => r.size_bytes))];
    if (!sizes.length) return [];
    const bySize = (/** @type {number} */ size) => oneWay.filter((r) => r.size_bytes === size).map((r) => `${r.transport.toUpperCase()} ${((r.geomean ?? r.mean) / 2).toFixed(2)} µs`).join(', ');
    return [`one way (mean RTT / 2 at depth 1, as the 2019 latency test gave it): ${sizes.map((size) => `${formatSize(size)} ${bySize(size)}`).join('; ')}`];
  },
  async run(spec, context) {
    const { size, depth } = spec;
    return measureEcho(echo, spec, context, { inFlight: depth, depth }, (lanes) => ({
      minUnits: FILL_FACTOR * depth, units: 'packets', floor: `${FILL_FACTOR} × --depth ${depth}`,
      figures: (x) => unitFigures(x, { count: 'packets', rate: 'msgs_per_s', per: 'msg' }),
      extra: (t, i) => ({ mb_per_s: (t.units * size) / (t.elapsedMs / 1000) / 1e6, ...rttFigures('rtt', lanes[i].histogram) }),
    }));
  },
};

/**
 * A trial's echo lanes (measureLoads), one per target, each a pipeline: a socket to the server, or a message
 * transport's own echo peer, started for the trial; every connection and peer is closed however the trial ends.
 * @param {import('./workload.js').Workload} workload
 * @param {import('./workload.js').TrialSpec} spec
 * @param {import('./workload.js').TrialContext} context
 * @param {{ inFlight: number, depth: number, open?: (lane: number) => import('../client/pipeline.js').OpenLoop }} how
 *   packets in flight at most (the payloads are made before anything is timed), and the closed-loop depth or each lane's open loop
 * @param {Parameters<typeof measureLoads>[4]} howOf
 */
export async function measureEcho(workload, spec, context, { inFlight, depth, open }, howOf) {
  const [{ createPipeline, readGreeting }, { createMessagePipeline }, { connect }, { createPayloads }] = await Promise.all([
    import('../client/pipeline.js'), import('../client/message-pipeline.js'), import('../client/transport.js'), import('../client/payload.js')]);
  const payloads = createPayloads(spec.size, spec.seed, inFlight);
  const loadOf = async (/** @type {import('../client/transport.js').Target} */ target, /** @type {number} */ i) => {
    const kind = getTransport(target.transport).channel;
    const loop = { depth, timeoutMs: spec.timeoutMs, open: open?.(i) };
    if (kind) {
      const peer = await kind.start({ startTimeoutMs: spec.timeoutMs, cpus: spec.placement?.server });
      const pipeline = createMessagePipeline(peer, { payloads, codec: kind.codec(payloads), ...loop });
      return {
        ...pipeline, probe: peer, serverThread: peer.tid, sharesProcess: kind.sharesProcess, countsReads: kind.countsReads,
        close: async () => { pipeline.close(); await peer.stop(); },
      };
    }
    /** @type {import('../client/transport.js').Reader} */
    const reader = { fn: () => {} };
    const socket = await connect(target, { noDelay: spec.noDelay, timeoutMs: spec.timeoutMs, reader });
    if (spec.greeting) await readGreeting(socket, ECHO_GREETING, spec.timeoutMs, reader).catch((error) => { socket.destroy(); throw error; }); // before the pipeline reads
    const pipeline = createPipeline(socket, { reader, payloads, ...loop });
    return { ...pipeline, close: async () => { pipeline.close(); socket.destroy(); } };
  };
  return measureLoads(workload, spec, context, loadOf, howOf);
}
