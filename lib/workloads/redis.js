/**
 * The redis workload (docs/workloads.md#redis--a-real-redis-server-through-ioredis), as its `what` says, against
 * lib/fixture/redis-process.js through lib/client/redis-load.js; redis-server's CPU, from /proc, is the server's, charged
 * per operation. redis-rate: the same server in open loop, with the rate workload's figures and rules (./rate.js,
 * docs/openloop.md#redis-and-postgres-in-open-loop).
 */
import { checkRedisInFlight } from '../core/limits.js';
import { describeRedisBenchmark, findRedisBenchmark, runRedisBenchmark } from '../client/redis-benchmark.js';
import { cpuColumns, measureLoads, mechanismSummary, rttColumns, rttFigures, unitFigures } from './common.js';
import { inFlightCap, openLoops, openTwin, rate } from './rate.js';

/** A block holds at least this many operations per operation in flight (clients × depth × batch). */
const FILL_FACTOR = 20;

/** @type {import('./workload.js').Workload} */
export const redisWorkload = {
  name: 'redis',
  what: 'SET then GET of an n-byte value on a real redis-server through ioredis, `depth` operations in flight on each of `clients` connections (default 1), `batch` of them per explicit pipeline (default 1: none), every reply checked',
  timed: 'a block: from its first SET to the reply of its last GET, nothing in flight at either edge; per operation, from its SET\'s issue to its GET\'s reply (with --batch above 1, its pipeline\'s: from exec to the last reply)',
  axes: {
    size: { label: 'value size', short: 'value', flag: '--size', min: 16, max: 64 * 1024, fallback: 16, powerOfTwo: true },
    depth: { label: 'operations in flight', short: 'in flight', flag: '--depth', min: 1, max: 256, fallback: 1 },
  },
  check: checkRedisInFlight,
  options: ['clients', 'batch'],
  connections: (_depth, options) => options.clients ?? 1,
  counts: false,
  columns: ['ops', 'blocks', 'block_ops', 'elapsed_ms', 'ops_per_s', 'verified_replies', ...rttColumns('latency'), ...cpuColumns('op', { serverElu: false })],
  blockColumns: ['ops', 'elapsed_ms', 'ops_per_s', ...cpuColumns('op', { serverElu: false })],
  table: [['ops', 'ops'], ['ops/s', 'ops_per_s'], ['p50 µs', 'latency_p50_us'], ['p99', 'latency_p99_us'],
    ['cpu µs/op cli', 'client_cpu_us_per_op'], ['redis', 'server_cpu_us_per_op'], ['elu cli', 'client_elu']],
  primary: 'ops_per_s',
  summary: {
    ops_per_s: { label: 'operations (SET + GET) per second', short: 'ops/s', unit: 'ops/s', better: 'higher' },
    latency_p50_us: { label: 'median operation latency', short: 'latency p50 µs', unit: 'us', better: 'lower' },
    latency_p99_us: { label: '99th percentile operation latency', short: 'latency p99 µs', unit: 'us', better: 'lower' },
    client_cpu_us_per_op: { label: 'client CPU per operation', short: 'client CPU µs/op', unit: 'us/op', better: 'lower' },
    server_cpu_us_per_op: { label: 'redis-server CPU per operation', short: 'redis CPU µs/op', unit: 'us/op', better: 'lower' },
    ...mechanismSummary('op', 'operation'),
  },
  fixture: { server: 'redis', proxy: false },
  needs: 'upstream',
  // a lane per target, each `clients` ioredis connections, measured in paired blocks
  async run(spec, context) {
    const { createRedisLoad } = await import('../client/redis-load.js');
    const clients = spec.clients ?? 1;
    const batch = spec.batch ?? 1;
    const loadOf = (/** @type {import('../client/transport.js').Target} */ target) => createRedisLoad(target, { size: spec.size, depth: spec.depth, clients, batch, seed: spec.seed, timeoutMs: spec.timeoutMs, noDelay: spec.noDelay });
    const floor = [`--depth ${spec.depth}`, ...(clients > 1 ? [`--clients ${clients}`] : []), ...(batch > 1 ? [`--batch ${batch}`] : [])].join(' × ');
    const verified = spec.targets.map(() => 0);
    return measureLoads(redisWorkload, spec, context, loadOf, (lanes) => ({
      minUnits: FILL_FACTOR * spec.depth * clients * batch, units: 'ops', floor: `${FILL_FACTOR} × ${floor}`,
      figures: (x) => unitFigures(x, { count: 'ops', rate: 'ops_per_s', per: 'op' }),
      extra: (_t, i) => ({ verified_replies: verified[i], ...rttFigures('latency', lanes[i].histogram) }),
    }), (t, i) => { verified[i] += t.verified; });
  },
  reference: {
    client: 'redis-benchmark',
    find: findRedisBenchmark,
    describe: describeRedisBenchmark,
    missing: 'redis-benchmark not found on PATH or in /usr/bin (Debian: apt-get install redis-tools): no C reference rows in reference.csv',
    run: runRedisBenchmark,
  },
};

/** The closed-loop twin's operations in flight, whose capacity `--depths auto` starts from: pipelined, as open loop's are. */
const CLOSED_DEPTH = 16;

/** @type {import('./workload.js').Workload} */
export const redisRateWorkload = {
  name: 'redis-rate',
  what: 'the redis workload in open loop: GETs of an n-byte value (16 keys SET beforehand, taken in turn) offered at a fixed rate on one ioredis connection, each timed from when it should have been sent, every reply\'s bytes checked',
  timed: 'a segment: its GETs sent on an absolute schedule from its start at the offered rate, on one connection whether or not earlier replies are in; it ends when the last reply is in. Response time from the intended send, service time from the GET\'s write, schedule lag between them',
  ...openTwin(redisWorkload, { serverElu: false }, ['verified_replies']),
  options: ['arrivals'],
  summary: { ...rate.summary, server_cpu_us_per_req: { label: 'redis-server CPU per request', short: 'redis CPU µs/req', unit: 'us/req', better: 'lower' } },
  closed: { workload: 'redis', depth: () => CLOSED_DEPTH },
  // a lane per target, each one ioredis connection in open loop
  async run(spec, context) {
    const { createRedisRateLoad } = await import('../client/redis-load.js');
    const loops = openLoops(spec, inFlightCap(spec.size));
    const loadOf = (/** @type {import('../client/transport.js').Target} */ target, /** @type {number} */ i) => createRedisRateLoad(target, {
      size: spec.size, seed: spec.seed, timeoutMs: spec.timeoutMs, noDelay: spec.noDelay, open: loops.lane(i),
    });
    const verified = spec.targets.map(() => 0);
    return measureLoads(redisRateWorkload, spec, context, loadOf, (lanes) => {
      const how = loops.measure(lanes);
      return { ...how, extra: (t, i) => ({ ...how.extra(t, i), verified_replies: verified[i] }) };
    }, (t, i) => { verified[i] += t.verified; });
  },
};
