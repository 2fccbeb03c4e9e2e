/**
 * The postgres workload (docs/workloads.md#postgres--node-postgres-against-a-private-cluster), as its `what` says,
 * against lib/fixture/postgres-process.js over loopback TCP and over its Unix socket, a lookup's aid seeded and random.
 * The server's CPU is its backends', from /proc. postgres-rate: the same queries in open loop, with the rate workload's
 * figures and rules (./rate.js, docs/openloop.md#redis-and-postgres-in-open-loop).
 */
import { performance } from 'node:perf_hooks';
import { createOpenDriver } from '../client/open-driver.js';
import { RunError } from '../core/errors.js';
import { cpuColumns, loopBlock, measureLoads, mechanismColumns, mechanismSummary, rttColumns, rttFigures, unitFigures } from './common.js';
import { inFlightCap, openLoops, openTwin, rate } from './rate.js';

/** A block holds at least this many queries per connection. */
const FILL_FACTOR = 20;
/** Connections per transport at most: both transports' lanes hold theirs at once, within the cluster's max_connections of 64. */
const MAX_CONNECTIONS = 30;
/** The queries, by the size axis: how many primary-key lookups each makes. */
const QUERIES = /** @type {const} */ (['SELECT 1 AS one', 'SELECT abalance FROM pgbench_accounts WHERE aid = $1']);
/** A size for people: a count of lookups, not bytes. @param {number} n */
export const formatLookups = (n) => (n === 0 ? 'SELECT 1' : `${n} lookup${n === 1 ? '' : 's'}`);

/** @type {import('./workload.js').Workload} */
export const postgresWorkload = {
  name: 'postgres',
  what: 'queries from node-postgres (pg) to a private PostgreSQL cluster (trust auth and no TLS on both paths), `connections` connections with one query in flight on each: SELECT 1 (size 0) or pgbench -S\'s primary-key lookup (size 1)',
  timed: 'a block: from its first query to the last reply, nothing in flight at either edge; per query, from client.query() to its verified rows',
  axes: {
    size: { label: 'primary-key lookups per query (0: SELECT 1, 1: pgbench -S)', short: 'lookups', flag: '--size', min: 0, max: QUERIES.length - 1, fallback: 1, format: formatLookups },
    depth: { label: 'connections', short: 'connections', flag: '--connections', min: 1, max: MAX_CONNECTIONS, fallback: 1 },
  },
  options: [],
  counts: false,
  columns: ['queries', 'blocks', 'block_queries', 'elapsed_ms', 'queries_per_s', ...rttColumns('latency'),
    'client_cpu_us_per_query', 'server_cpu_us_per_query', 'client_elu', 'pgbench_tps', 'pgbench_latency_avg_us', ...mechanismColumns('query')],
  blockColumns: ['queries', 'elapsed_ms', 'queries_per_s', ...cpuColumns('query', { serverElu: false })],
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
  async run(spec, context) {
    return measureLoads(postgresWorkload, spec, context, (target) => createQuerier(target, spec), (lanes) => ({
      minUnits: FILL_FACTOR * spec.depth, units: 'queries', floor: `${FILL_FACTOR} × --connections ${spec.depth}`,
      figures: (x) => unitFigures(x, { count: 'queries', rate: 'queries_per_s', per: 'query' }),
      extra: (_t, i) => rttFigures('latency', lanes[i].histogram),
    }));
  },
};

/** Connections per transport of postgres-rate when --connections is not given: a few taking turns, as a small pool's. */
const OPEN_CONNECTIONS = 4;
const openConnections = (/** @type {{ connections?: number | null }} */ options) => options.connections ?? OPEN_CONNECTIONS;

/** @type {import('./workload.js').Workload} */
export const postgresRateWorkload = {
  name: 'postgres-rate',
  what: 'the postgres workload in open loop: queries (SELECT 1 at size 0, pgbench -S\'s lookup at size 1) offered at a fixed rate over `connections` pg connections taking turns, each timed from when it should have been sent, every reply verified',
  timed: 'a segment: its queries due on an absolute schedule from its start at the offered rate, query j on connection j mod --connections (queued there while it is busy); it ends when the last reply is in. Response time from the intended send, service time from the query\'s write, schedule lag between the intended send and the pacer\'s',
  ...openTwin(postgresWorkload, { serverElu: false }),
  options: ['connections', 'arrivals'],
  summary: { ...rate.summary, server_cpu_us_per_req: { label: 'PostgreSQL CPU per query', short: 'server CPU µs/req', unit: 'us/req', better: 'lower' } },
  connections: (_depth, options) => openConnections(options),
  openConnections: { fallback: OPEN_CONNECTIONS, max: MAX_CONNECTIONS },
  closed: { workload: 'postgres', depth: openConnections },
  // a lane per target, each `--connections` connections in open loop
  async run(spec, context) {
    const loops = openLoops(spec, Math.max(openConnections(spec), inFlightCap(1))); // a query and its answer are a few dozen bytes
    return measureLoads(postgresRateWorkload, spec, context, (target, i) => createRateQuerier(target, spec, loops.lane(i)), loops.measure);
  },
};

/**
 * `count` pg connections to one target, connected; each one's 'error' goes to onError.
 * @param {import('../client/transport.js').Target} target
 * @param {import('./workload.js').TrialSpec} spec
 * @param {number} count
 * @param {{ onError: (error: Error) => void, queryTimeout?: number }} how queryTimeout: none, no timer per query
 * @returns {Promise<import('pg').Client[]>}
 */
async function connectClients(target, spec, count, { onError, queryTimeout }) {
  const [{ default: pg }, { pgAddress }, { DATABASE, SUPERUSER }] = await Promise.all([import('pg'), import('../fixture/postgres.js'), import('../fixture/postgres-process.js')]);
  const address = pgAddress(target);
  const clients = Array.from({ length: count }, () => {
    // fail fast when the server dies: a connect that takes longer than --timeout fails the trial
    const client = new pg.Client({ ...address, user: SUPERUSER, database: DATABASE, connectionTimeoutMillis: spec.timeoutMs, ...(queryTimeout ? { query_timeout: queryTimeout } : {}) });
    client.on('error', (error) => onError(new RunError(`postgres connection over ${target.transport} failed: ${error.message}`, 'ERR_POSTGRES')));
    return client;
  });
  try {
    await Promise.all(clients.map((client) => client.connect()));
  } catch (error) {
    await Promise.all(clients.map((client) => client.end().catch(() => {})));
    throw new RunError(`cannot connect to postgres over ${target.transport}: ${/** @type {Error} */ (error).message}`, 'ERR_CONNECT');
  }
  return clients;
}

/**
 * The trial's queries, as the size axis says: `aid()` draws the next one's aid (0 for SELECT 1), `ask` sends it on a
 * connection, `wrong` says what came instead of its right answer, if anything did.
 * @param {import('./workload.js').TrialSpec} spec
 * @param {string} transport
 */
async function queriesOf(spec, transport) {
  const [{ createRandom }, { ACCOUNTS }] = await Promise.all([import('../core/random.js'), import('../fixture/postgres-process.js')]);
  const random = createRandom(spec.seed, 'postgres-aid'); // the same aids, in the same order, on every transport
  const lookup = spec.size === 1;
  return {
    aid: () => (lookup ? 1 + Math.floor(random() * ACCOUNTS) : 0),
    /** @param {import('pg').Client} client @param {number} aid */
    ask: (client, aid) => (lookup ? client.query(QUERIES[1], [aid]) : client.query(QUERIES[0])),
    /** @param {number} aid @param {any[]} rows */
    wrong(aid, rows) {
      const right = lookup ? rows.length === 1 && rows[0].abalance === 0 : rows.length === 1 && rows[0].one === 1;
      return right ? undefined : new RunError(`${lookup ? `the lookup of aid ${aid} (one row, abalance 0 expected)` : 'SELECT 1'} answered ${JSON.stringify(rows).slice(0, 200)} over ${transport}`, 'ERR_VERIFY');
    },
  };
}

/**
 * A lane of `depth` pg connections to one target, each with one query at a time.
 * @param {import('../client/transport.js').Target} target
 * @param {import('./workload.js').TrialSpec} spec
 */
async function createQuerier(target, spec) {
  const queries = await queriesOf(spec, target.transport);
  /** @type {Error | undefined} */
  let failure;
  /** @type {import('pg').Client[]} */
  const clients = [];
  const fail = (/** @type {Error} */ error) => {
    failure ??= error;
    for (const client of clients) client.end().catch(() => {});
  };
  // and a query that takes longer than --timeout fails the trial
  clients.push(...await connectClients(target, spec, spec.depth, { onError: fail, queryTimeout: spec.timeoutMs }));

  /**
   * One query, verified.
   * @param {import('pg').Client} client
   * @param {import('node:perf_hooks').RecordableHistogram | undefined} histogram
   */
  const once = async (client, histogram) => {
    const aid = queries.aid();
    const t0 = performance.now();
    const result = await queries.ask(client, aid);
    const ns = Math.max(1, Math.round((performance.now() - t0) * 1e6));
    const wrong = queries.wrong(aid, result.rows);
    if (wrong) throw wrong;
    histogram?.record(ns);
  };

  return {
    /** @type {import('../client/blocks.js').Lane['block']} */
    block: (n, histogram) => loopBlock(n, spec.depth, (j) => once(clients[j], histogram), () => failure).catch((error) => {
      throw failure ?? error;
    }),
    abort: fail,
    close: () => Promise.all(clients.map((client) => client.end().catch(() => {}))),
  };
}

/**
 * A lane of postgres-rate: `--connections` pg connections to one target in open loop (./open-driver.js), query j on
 * connection j mod C when due. Each connection's queries wait in its own queue, the next written as soon as the one
 * before is answered (as pg's queue would), so its service time runs from its write; answers complete out of order
 * across connections, each with its own due and write times. No per-query timer: the driver's watchdog fails a segment
 * that hears nothing for --timeout.
 * @param {import('../client/transport.js').Target} target
 * @param {import('./workload.js').TrialSpec} spec
 * @param {import('../client/pipeline.js').OpenLoop} open
 */
async function createRateQuerier(target, spec, open) {
  const queries = await queriesOf(spec, target.transport);
  /** @type {Error | undefined} */
  let failure;
  /** @type {import('pg').Client[]} */
  const clients = [];
  /** each connection's queries sent and not yet answered, oldest first: the first is written, the rest wait for it */
  const queues = Array.from({ length: openConnections(spec) }, () => /** @type {{ due: number, aid: number }[]} */ ([]));
  const fail = (/** @type {Error} */ error) => {
    if (failure) return;
    failure = error;
    driver.fail(error);
    for (const client of clients) client.end().catch(() => {});
  };

  /** Write the query at the head of connection c's queue. @param {number} c */
  const write = (c) => {
    const { due, aid } = queues[c][0];
    const sent = performance.now();
    queries.ask(clients[c], aid).then((result) => {
      if (failure) return;
      const now = performance.now();
      const wrong = queries.wrong(aid, result.rows);
      if (wrong) {
        fail(wrong);
        return;
      }
      queues[c].shift();
      if (queues[c].length) write(c);
      driver.heard(now);
      driver.complete(now, due, sent);
      driver.settle(now);
    }, (error) => fail(new RunError(`postgres over ${target.transport}: ${error.message}`, 'ERR_POSTGRES')));
  };

  const driver = createOpenDriver({
    ...open,
    timeoutMs: spec.timeoutMs,
    what: 'postgres lane',
    send: (index, due) => {
      const c = index % queues.length;
      queues[c].push({ due, aid: queries.aid() });
      if (queues[c].length === 1) write(c);
    },
    unanswered: () => queues.flatMap((queue) => queue.map((q) => q.due)),
    onFail: fail,
  });
  try {
    clients.push(...await connectClients(target, spec, queues.length, { onError: fail }));
  } catch (error) {
    driver.close(); // its watchdog would outlive a querier nobody holds
    throw error;
  }

  return {
    block: driver.block,
    abort: fail,
    close: async () => {
      if (driver.running()) fail(new RunError(`closed with ${driver.state.sent - driver.state.received} queries in flight`, 'ERR_CLOSED'));
      driver.close();
      await Promise.all(clients.map((client) => client.end().catch(() => {})));
    },
  };
}
