/**
 * The rate workload: echo in open loop (docs/openloop.md). Packets are offered at a fixed rate (the depth axis, per
 * second) whether or not echoes are back, each timed from when it was due (lib/client/open-driver.js), so a stall shows
 * in the percentiles instead of being left out. A block is a segment of at least MIN_SEGMENT_MS of schedule,
 * alternating between transports as echo's blocks do; every echoed byte is verified. A lane's figures say whether it
 * kept the rate before any latency: offered, sent and completed rates, drops at the in-flight cap, and `limit`: none
 * (sustainable), server (it did not complete what was offered) or generator (this client's pacer ran late).
 */
import { createHistogram } from 'node:perf_hooks';
import { MAX_IN_FLIGHT, MAX_SIZE } from '../core/limits.js';
import { MiB } from '../core/units.js';
import { HISTOGRAM, cpuColumns, mechanismSummary, rttFigures, unitFigures } from './common.js';
import { measureEcho } from './echo.js';

/** A segment offers at least this much schedule: its edges (the drain, the switch to the other lane) stay a small part of it. */
const MIN_SEGMENT_MS = 100;
/** A segment kept its rate when it dropped nothing and completed at least this share of what its schedule offered (keptSegment). */
const COMPLETION_SHARE = 0.99;
/**
 * A lane kept its rate when at least this share of its segments did. Not all: on this VM a pause of the whole machine
 * (10–20 ms, a few times a minute) makes a 100 ms segment end that late, or drop packets; a server that cannot carry the
 * rate misses it in every segment, its backlog growing through each.
 */
const KEPT_SEGMENTS_SHARE = 0.8;
/**
 * The pacer kept up when its median schedule lag is within this many µs (or a tenth of the mean gap, at slow rates).
 * Not p99: on the 2-core VM measured, the loop is paused for milliseconds about one pass in a hundred at any rate (lag
 * p99 0.2–16 ms in one sweep; docs/openloop.md), delaying 1 % of packets with the rate in reach; a pacer that cannot
 * keep the rate is late for most packets, and its median grows.
 */
const LAG_P50_BOUND_US = 50;
/** Highest rate offered, requests per second. */
const MAX_RATE = 1_000_000;

/**
 * Packets in flight at most, the safety valve: 4096, fewer for big packets (16 MiB in flight at most).
 * @param {number} size
 */
export const inFlightCap = (size) => Math.max(1, Math.min(4096, Math.floor((16 * MiB) / size)));

/** The open-loop columns, before the CPU figures: rate's, and its twins' (openTwin). */
const OPEN_COLUMNS = ['requests', 'blocks', 'block_requests', 'elapsed_ms', 'rate_target', 'rate_sent', 'rate_completed', 'dropped', 'incomplete', 'limit', 'limit_reason',
  'resp_mean_us', 'resp_p50_us', 'resp_p90_us', 'resp_p99_us', 'resp_p999_us', 'resp_max_us', 'svc_p50_us', 'svc_p99_us', 'lag_p50_us', 'lag_p99_us', 'lag_max_us'];

/** @type {import('./workload.js').Workload} */
export const rate = {
  name: 'rate',
  what: 'echo in open loop: packets of one size offered at a fixed rate, each timed from when it should have been sent, every echoed byte verified',
  timed: 'a segment: its packets sent on an absolute schedule from its start, at the offered rate; it ends when the last echo is back. Response time from the intended send, service time from the actual send, schedule lag between them',
  axes: {
    size: { label: 'packet size', short: 'size', flag: '--size', min: 1, max: MAX_SIZE, fallback: 64, powerOfTwo: true },
    depth: { label: 'offered rate (requests/s)', short: 'rate', flag: '--rate', min: 1, max: MAX_RATE, fallback: 1000 },
  },
  options: ['arrivals'],
  counts: true,
  columns: [...OPEN_COLUMNS, ...cpuColumns('req')],
  blockColumns: ['requests', 'elapsed_ms', 'req_per_s', ...cpuColumns('req')],
  table: [['offered/s', 'rate_target'], ['sent/s', 'rate_sent'], ['done/s', 'rate_completed'], ['dropped', 'dropped'], ['limit', 'limit'],
    ['resp p50', 'resp_p50_us'], ['p99', 'resp_p99_us'], ['p99.9', 'resp_p999_us'], ['max µs', 'resp_max_us'], ['svc p99', 'svc_p99_us'], ['lag p99', 'lag_p99_us'],
    ['cpu µs/req cli', 'client_cpu_us_per_req'], ['srv', 'server_cpu_us_per_req']],
  primary: 'resp_p99_us',
  summary: {
    resp_p99_us: { label: '99th percentile response time (from the intended send)', short: 'resp p99 µs', unit: 'us', better: 'lower' },
    resp_p50_us: { label: 'median response time (from the intended send)', short: 'resp p50 µs', unit: 'us', better: 'lower' },
    resp_p999_us: { label: '99.9th percentile response time', short: 'resp p99.9 µs', unit: 'us', better: 'lower' },
    svc_p99_us: { label: '99th percentile service time (from the actual send)', short: 'svc p99 µs', unit: 'us', better: 'lower' },
    server_cpu_us_per_req: { label: 'server CPU per request', short: 'server CPU µs/req', unit: 'us/req', better: 'lower' },
    client_cpu_us_per_req: { label: 'client CPU per request (the pacer spins: a generator cost)', short: 'client CPU µs/req', unit: 'us/req', better: 'lower' },
    rate_completed: { label: 'requests completed per second', short: 'done/s', unit: 'req/s', better: 'higher' },
    ...mechanismSummary('req', 'request'),
  },
  fixture: { server: 'echo', proxy: false },
  // 16 in flight (fewer for big packets, within MAX_IN_FLIGHT); without --server-delay, which caps a closed loop at depth
  // per delay but not the open loop's single connection
  closed: { workload: 'echo', depth: (_options, size) => Math.max(1, Math.min(16, Math.floor(MAX_IN_FLIGHT / size))), delay: false },
  needs: 'messages',
  async run(spec, context) {
    const cap = inFlightCap(spec.size);
    const loops = openLoops(spec, cap);
    return measureEcho(rate, spec, context, { inFlight: cap, depth: 1, open: loops.lane }, loops.measure);
  },
};

/**
 * What an open-loop twin of a closed-loop workload (http-rate, proxy-rate, redis-rate, postgres-rate) declares as rate
 * does: its twin's size axis, server and what it needs of a transport, with rate's depth axis (the offered rate),
 * counts, open-loop columns (`extra` after them), table and primary figure; `cpu`: its CPU columns' (cpuColumns).
 * @param {import('./workload.js').Workload} closed
 * @param {{ proxy?: boolean, serverElu?: boolean }} [cpu]
 * @param {string[]} [extra]
 */
export const openTwin = (closed, cpu = {}, extra = []) => ({
  axes: { size: closed.axes.size, depth: rate.axes.depth },
  counts: true, // a count of requests: one segment of them, as rate's packets
  columns: [...OPEN_COLUMNS, ...extra, ...cpuColumns('req', cpu)],
  blockColumns: ['requests', 'elapsed_ms', 'req_per_s', ...cpuColumns('req', cpu)],
  table: cpu.proxy ? [...rate.table, /** @type {[string, string]} */ (['nginx', 'proxy_cpu_us_per_req'])] : rate.table,
  primary: rate.primary,
  fixture: closed.fixture,
  needs: closed.needs,
});

/** A row of an open-loop trial: it says whether it kept its rate (`limit`). @param {Record<string, any>} row */
export const isOpenLoop = (row) => typeof row.limit === 'string';

/** An open-loop row that missed its rate: its figures are a saturated server's or a late pacer's, not the transport's at that rate. @param {Record<string, any>} row */
export const missedRate = (row) => isOpenLoop(row) && row.limit !== 'none';

/**
 * Its completion rate against what its schedule offered: its packets over the schedule's length plus its backlog's
 * growth (how much later its last packets were answered than its first, from when each was due). Not over its wall
 * time, which adds one answer's latency, no backlog, and failed short segments at rates the server carried; not
 * against --rate, which a poisson segment's schedule offers only on average.
 * @param {{ scheduled: number, sent: number, dropped: number, spanMs: number, growthMs: number }} segment
 */
export const keptSegment = ({ scheduled, sent, dropped, spanMs, growthMs }) => dropped === 0 && (sent / scheduled) * (spanMs / (spanMs + Math.max(0, growthMs))) >= COMPLETION_SHARE;

/**
 * Whether a lane kept its rate, and if not, what limited it.
 * @param {{ target: number, segments: number, kept: number, dropped: number, lagP50Us: number }} lane its measured segments, how many kept the rate
 * @returns {{ limit: 'none' | 'server' | 'generator', reason: string }}
 */
export function limitOf({ target, segments, kept, dropped, lagP50Us }) {
  const lagBound = Math.max(LAG_P50_BOUND_US, 1e6 / target / 10);
  if (lagP50Us > lagBound) return { limit: 'generator', reason: `the pacer's median schedule lag ${lagP50Us.toFixed(1)} µs is over ${lagBound.toFixed(0)} µs` };
  const missed = `${segments - kept} of ${segments} segments missed the rate (dropped a packet at the in-flight cap, ${dropped} in all, or completed under ${COMPLETION_SHARE * 100} % of it)`;
  if (kept < KEPT_SEGMENTS_SHARE * segments) return { limit: 'server', reason: missed };
  return { limit: 'none', reason: kept < segments ? `kept; ${missed}` : '' };
}

/**
 * A trial's open loops at the offered rate (the depth axis), each lane's with its service-time and schedule-lag
 * histograms: `lane(i)`, lane i's for its client (lib/client/open-driver.js); `measure(lanes)`, what measureLanes needs
 * of the lanes, each lane's blocks wrapped to count its measured segments and whether each kept the rate: the floor of
 * a segment, and the figures (rate, drops, limit, the three times) of a lane.
 * @param {import('./workload.js').TrialSpec} spec
 * @param {number} cap in flight at most
 */
export function openLoops(spec, cap) {
  const offered = spec.depth;
  const histograms = spec.targets.map(() => ({ service: createHistogram(HISTOGRAM), lag: createHistogram(HISTOGRAM) }));
  return {
    /** @param {number} i @returns {import('../client/pipeline.js').OpenLoop} */
    lane: (i) => ({ rate: offered, arrivals: spec.arrivals ?? 'constant', seed: spec.seed, cap, histograms: histograms[i] }),
    /** @param {import('../client/blocks.js').Lane[]} lanes their blocks are segments (lib/client/open-driver.js) */
    measure(lanes) {
      const counts = lanes.map(() => ({ sent: 0, dropped: 0, sendSpanMs: 0, segments: 0, kept: 0 }));
      lanes.forEach((lane, i) => {
        const segment = lane.block;
        lane.block = async (n, histogram) => {
          const t = /** @type {import('../client/open-driver.js').SegmentTimes} */ (await segment(n, histogram));
          if (histogram) {
            counts[i].sent += t.sent;
            counts[i].dropped += t.dropped;
            counts[i].sendSpanMs += t.sendSpanMs;
            counts[i].segments++;
            if (keptSegment(t)) counts[i].kept++;
          }
          return t;
        };
      });
      return {
        minUnits: Math.max(1, Math.ceil((offered * MIN_SEGMENT_MS) / 1000)),
        units: 'requests',
        floor: `${MIN_SEGMENT_MS} ms of schedule at --rate ${offered}`,
        figures: (/** @type {import('../client/blocks.js').Totals | import('../client/blocks.js').Block} */ x) => unitFigures(x, { count: 'requests', rate: 'req_per_s', per: 'req' }),
        extra: (/** @type {{ elapsedMs: number }} */ t, /** @type {number} */ i) => {
          const c = counts[i];
          const lag = rttFigures('lag', histograms[i].lag);
          const { limit, reason } = limitOf({ target: offered, segments: c.segments, kept: c.kept, dropped: c.dropped, lagP50Us: lag.lag_p50_us });
          return {
            rate_target: offered,
            rate_sent: c.sent / (c.sendSpanMs / 1000),
            rate_completed: c.sent / (t.elapsedMs / 1000), // every request sent is back, or the segment failed
            dropped: c.dropped,
            incomplete: 0,
            limit,
            limit_reason: reason,
            ...rttFigures('resp', /** @type {import('node:perf_hooks').RecordableHistogram} */ (lanes[i].histogram)),
            ...rttFigures('svc', histograms[i].service),
            ...lag,
          };
        },
      };
    },
  };
}
