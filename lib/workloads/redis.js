/**
 * The redis workload (docs/workloads.md#redis--a-real-redis-server-through-ioredis): SET then GET of an n-byte value
 * against a real redis-server (lib/fixture/redis-process.js) through ioredis (lib/client/redis-load.js), `depth`
 * operations in flight on one connection per transport, every reply checked. redis-server's CPU, from /proc, is the
 * server's, charged per operation.
 */
import { createHistogram } from 'node:perf_hooks';
import { describeRedisBenchmark, findRedisBenchmark, runRedisBenchmark } from '../client/redis-benchmark.js';
import { HISTOGRAM, measureLanes, mechanismColumns, mechanismSummary, rttFigures, trialDeadline, unitFigures } from './common.js';

/** A block holds at least this many operations per loop in flight. */
export const FILL_FACTOR = 20;

/** @type {import('./workload.js').Workload} */
export const redisWorkload = {
  name: 'redis',
  what: 'SET then GET of an n-byte value on a real redis-server through ioredis, `depth` operations in flight on one connection, every reply checked',
  timed: 'a block: from its first SET to the reply of its last GET, nothing in flight at either edge; per operation, from its SET\'s issue to its GET\'s reply',
  axes: {
    size: { label: 'value size', short: 'value', flag: '--size', min: 16, max: 64 * 1024, fallback: 16, powerOfTwo: true },
    depth: { label: 'operations in flight', short: 'in flight', flag: '--depth', min: 1, max: 256, fallback: 1 },
  },
  options: [],
  counts: false,
  columns: ['ops', 'blocks', 'block_ops', 'elapsed_ms', 'ops_per_s', 'verified_replies',
    'latency_mean_us', 'latency_sd_us', 'latency_p50_us', 'latency_p90_us', 'latency_p99_us', 'latency_p999_us', 'latency_max_us',
    'client_cpu_us_per_op', 'server_cpu_us_per_op', 'client_elu', ...mechanismColumns('op')],
  blockColumns: ['ops', 'elapsed_ms', 'ops_per_s', 'client_cpu_us_per_op', 'server_cpu_us_per_op', 'client_elu', ...mechanismColumns('op')],
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
  run: runRedis,
  reference: {
    client: 'redis-benchmark',
    find: findRedisBenchmark,
    describe: describeRedisBenchmark,
    missing: 'redis-benchmark not found on PATH or in /usr/bin (Debian: apt-get install redis-tools): no C reference rows in reference.csv',
    run: runRedisBenchmark,
  },
};

/**
 * A lane per target, each one ioredis connection, measured in paired blocks.
 * @param {import('./workload.js').TrialSpec} spec
 * @param {import('./workload.js').TrialContext} [context]
 * @returns {Promise<import('./workload.js').TrialResult>}
 */
async function runRedis(spec, context = {}) {
  // ioredis loads only in the trials that use it
  const { createRedisLoad } = await import('../client/redis-load.js');
  const loads = spec.targets.map((target) => createRedisLoad(target, { size: spec.size, depth: spec.depth, seed: spec.seed, timeoutMs: spec.timeoutMs, noDelay: spec.noDelay }));
  const verified = loads.map(() => 0);
  const lanes = spec.targets.map((target, i) => ({
    target,
    histogram: createHistogram(HISTOGRAM),
    block: async (/** @type {number} */ n, /** @type {import('node:perf_hooks').RecordableHistogram | undefined} */ histogram) => {
      const t = await loads[i].block(n, histogram);
      if (histogram) verified[i] += t.verified; // the measured blocks' (a lane's histogram is given to those only)
      return t;
    },
    abort: (/** @type {Error} */ error) => loads[i].abort(error),
  }));
  const deadline = trialDeadline(spec, context.signal, (error) => { for (const lane of lanes) lane.abort(error); });
  try {
    return await measureLanes(redisWorkload, spec, context, lanes, {
      minUnits: FILL_FACTOR * spec.depth, units: 'ops', floor: `${FILL_FACTOR} × --depth ${spec.depth}`,
      figures: (x) => unitFigures(x, { count: 'ops', rate: 'ops_per_s', per: 'op' }),
      extra: (t, i) => ({ verified_replies: verified[i], ...rttFigures('latency', lanes[i].histogram) }),
    });
  } finally {
    deadline.clear();
    await Promise.all(loads.map((load) => load.close().catch(() => {})));
  }
}
