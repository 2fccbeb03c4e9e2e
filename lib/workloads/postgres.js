/**
 * The postgres workload (docs/workloads.md#postgres--node-postgres-against-a-private-cluster): queries from node-postgres
 * (`pg`) to a private PostgreSQL cluster (lib/fixture/postgres-process.js) over loopback TCP and over its Unix socket,
 * `depth` connections per transport each with one query in flight, every reply verified. The size axis is the number
 * of primary-key lookups a query makes: 0 is `SELECT 1`, 1 is pgbench -S's `SELECT abalance FROM pgbench_accounts
 * WHERE aid = $1` with a seeded random aid. The server's CPU is its backends', from /proc.
 */
import { createHistogram, performance } from 'node:perf_hooks';
import { RunError } from '../core/errors.js';
import { HISTOGRAM, measureLanes, mechanismColumns, mechanismSummary, rttFigures, trialDeadline, unitFigures } from './common.js';

/** A block holds at least this many queries per connection. */
export const FILL_FACTOR = 20;
/** Connections per transport at most: both transports' lanes hold theirs at once, within the cluster's max_connections of 64. */
export const MAX_CONNECTIONS = 30;
/** The queries, by the size axis: how many primary-key lookups each makes. */
export const QUERIES = /** @type {const} */ (['SELECT 1 AS one', 'SELECT abalance FROM pgbench_accounts WHERE aid = $1']);

/** @type {import('./workload.js').Workload} */
export const postgresWorkload = {
  name: 'postgres',
  what: 'queries from node-postgres (pg) to a private PostgreSQL cluster (trust auth and no TLS on both paths), `connections` connections with one query in flight on each: SELECT 1 (size 0) or pgbench -S\'s primary-key lookup (size 1)',
  timed: 'a block: from its first query to the last reply, nothing in flight at either edge; per query, from client.query() to its verified rows',
  axes: {
    size: { label: 'primary-key lookups per query (0: SELECT 1, 1: pgbench -S)', short: 'lookups', flag: '--size', min: 0, max: QUERIES.length - 1, fallback: 1 },
    depth: { label: 'connections', short: 'connections', flag: '--connections', min: 1, max: MAX_CONNECTIONS, fallback: 1 },
  },
  options: [],
  counts: false,
  columns: ['queries', 'blocks', 'block_queries', 'elapsed_ms', 'queries_per_s',
    'latency_mean_us', 'latency_sd_us', 'latency_p50_us', 'latency_p90_us', 'latency_p99_us', 'latency_p999_us', 'latency_max_us',
    'client_cpu_us_per_query', 'server_cpu_us_per_query', 'client_elu', 'pgbench_tps', 'pgbench_latency_avg_us', ...mechanismColumns('query')],
  blockColumns: ['queries', 'elapsed_ms', 'queries_per_s', 'client_cpu_us_per_query', 'server_cpu_us_per_query', 'client_elu', ...mechanismColumns('query')],
  table: [['queries', 'queries'], ['queries/s', 'queries_per_s'], ['p50 µs', 'latency_p50_us'], ['p99', 'latency_p99_us'],
    ['cpu µs/query cli', 'client_cpu_us_per_query'], ['srv', 'server_cpu_us_per_query'], ['elu cli', 'client_elu'], ['pgbench tps', 'pgbench_tps']],
  primary: 'queries_per_s',
  summary: {
    queries_per_s: { label: 'queries per second', short: 'queries/s', unit: 'queries/s', better: 'higher' },
    latency_p50_us: { label: 'median query latency', short: 'latency p50 µs', unit: 'us', better: 'lower' },
    latency_p99_us: { label: '99th percentile query latency', short: 'latency p99 µs', unit: 'us', better: 'lower' },
    client_cpu_us_per_query: { label: 'client CPU per query', short: 'client CPU µs/query', unit: 'us/query', better: 'lower' },
    server_cpu_us_per_query: { label: 'PostgreSQL CPU per query', short: 'server CPU µs/query', unit: 'us/query', better: 'lower' },
    pgbench_tps: { label: 'pgbench transactions per second (libpq, the same queries and connections, after the trial\'s blocks)', short: 'pgbench tps', unit: 'tps', better: 'higher' },
    ...mechanismSummary('query', 'query'),
  },
  fixture: { server: 'postgres', proxy: false },
  connections: (depth) => depth,
  needs: 'upstream', // a server outside Node listens on it: TCP and UDS, not the abstract socket
  run: runPostgres,
};

/**
 * A lane of `depth` pg connections to one target, each with one query at a time.
 * @param {import('../client/transport.js').Target} target
 * @param {import('./workload.js').TrialSpec} spec
 */
async function createQuerier(target, spec) {
  // pg and the cluster's modules load only in the trials that use them
  const [{ default: pg }, { createRandom }, { pgAddress }, { ACCOUNTS, DATABASE, SUPERUSER }] = await Promise.all([
    import('pg'), import('../core/random.js'), import('../fixture/postgres.js'), import('../fixture/postgres-process.js')]);
  /** @type {Error | undefined} */
  let failure;
  /** @type {import('pg').Client[]} */
  const clients = [];
  const random = createRandom(spec.seed, 'postgres-aid'); // the same aids, in the same order, on every transport
  const lookup = spec.size === 1;
  const fail = (/** @type {Error} */ error) => {
    failure ??= error;
    for (const client of clients) client.end().catch(() => {});
  };
  const address = pgAddress(target);
  for (let i = 0; i < spec.depth; i++) {
    // fail fast when the server dies: a connect or a query that takes longer than --timeout fails the trial
    const client = new pg.Client({ ...address, user: SUPERUSER, database: DATABASE, connectionTimeoutMillis: spec.timeoutMs, query_timeout: spec.timeoutMs });
    client.on('error', (error) => fail(new RunError(`postgres connection over ${target.transport} failed: ${error.message}`, 'ERR_POSTGRES')));
    clients.push(client);
  }
  try {
    await Promise.all(clients.map((client) => client.connect()));
  } catch (error) {
    await Promise.all(clients.map((client) => client.end().catch(() => {})));
    throw new RunError(`cannot connect to postgres over ${target.transport}: ${/** @type {Error} */ (error).message}`, 'ERR_CONNECT');
  }

  /**
   * One query, verified.
   * @param {import('pg').Client} client
   * @param {import('node:perf_hooks').RecordableHistogram | undefined} histogram
   */
  const once = async (client, histogram) => {
    const aid = lookup ? 1 + Math.floor(random() * ACCOUNTS) : 0;
    const t0 = performance.now();
    const result = lookup ? await client.query(QUERIES[1], [aid]) : await client.query(QUERIES[0]);
    const ns = Math.max(1, Math.round((performance.now() - t0) * 1e6));
    const rows = result.rows;
    const right = lookup ? rows.length === 1 && rows[0].abalance === 0 : rows.length === 1 && rows[0].one === 1;
    if (!right) throw new RunError(`${lookup ? `the lookup of aid ${aid} (one row, abalance 0 expected)` : 'SELECT 1'} answered ${JSON.stringify(rows).slice(0, 200)} over ${target.transport}`, 'ERR_VERIFY');
    histogram?.record(ns);
  };

  return {
    /**
     * @param {number} n queries in this block
     * @param {import('node:perf_hooks').RecordableHistogram} [histogram]
     * @returns {Promise<import('../client/blocks.js').BlockTimes>}
     */
    async block(n, histogram) {
      let next = 0;
      const start = performance.now();
      const loop = async (/** @type {import('pg').Client} */ client) => {
        while (next < n) {
          if (failure) throw failure;
          next++;
          await once(client, histogram);
        }
      };
      try {
        await Promise.all(clients.slice(0, Math.min(spec.depth, n)).map(loop));
      } catch (error) {
        throw failure ?? error;
      }
      return { start, end: performance.now() };
    },
    /** @param {Error} error */
    abort: fail,
    close: () => Promise.all(clients.map((client) => client.end().catch(() => {}))),
  };
}

/**
 * @param {import('./workload.js').TrialSpec} spec
 * @param {import('./workload.js').TrialContext} [context]
 * @returns {Promise<import('./workload.js').TrialResult>}
 */
async function runPostgres(spec, context = {}) {
  /** @type {Awaited<ReturnType<typeof createQuerier>>[]} */
  const queriers = [];
  const deadline = trialDeadline(spec, context.signal, (error) => { for (const q of queriers) q.abort(error); });
  try {
    for (const target of spec.targets) {
      queriers.push(await createQuerier(target, spec));
      deadline.check();
    }
    const lanes = spec.targets.map((target, i) => ({ target, histogram: createHistogram(HISTOGRAM), block: queriers[i].block, abort: queriers[i].abort }));
    return await measureLanes(postgresWorkload, spec, context, lanes, {
      minUnits: FILL_FACTOR * spec.depth, units: 'queries', floor: `${FILL_FACTOR} × --connections ${spec.depth}`,
      figures: (x) => unitFigures(x, { count: 'queries', rate: 'queries_per_s', per: 'query' }),
      extra: (_t, i) => rttFigures('latency', lanes[i].histogram),
    });
  } finally {
    deadline.clear();
    await Promise.all(queriers.map((q) => q.close()));
  }
}
