/**
 * The connect workload, the 2017 connection-rate test (docs/workloads.md#connect--the-2017-connection-rate-test):
 * connect, read the 12-byte greeting, close, `depth` loops at once, each connection timed into an HDR histogram. Running
 * out of ephemeral ports (TIME_WAIT) fails the trial with a message naming the port range and tcp_tw_reuse, never a crash.
 */
import { performance } from 'node:perf_hooks';
import { RunError } from '../core/errors.js';
import { CONNECT_GREETING } from '../fixture/handlers.js';
import { readNetLimits } from '../core/environment.js';
import { cpuColumns, loopBlock, measureLoads, mechanismSummary, rttColumns, rttFigures, unitFigures } from './common.js';

/** A block holds at least this many connections per loop. */
export const MIN_PER_LOOP = 20;

/** @type {import('./workload.js').Workload} */
export const connectWorkload = {
  name: 'connect',
  what: 'connect, read the 12-byte greeting "Hello there!", close; looped, `depth` loops at once',
  timed: 'a block: from the first connect call to the close of its last connection; per connection, from the connect call to the last byte of the greeting',
  axes: {
    size: { label: 'greeting bytes', short: 'greeting', flag: '--size', min: CONNECT_GREETING.length, max: CONNECT_GREETING.length, fallback: CONNECT_GREETING.length },
    depth: { label: 'connections at once', short: 'at once', flag: '--depth', min: 1, max: 64, fallback: 1 },
  },
  options: [],
  counts: false,
  columns: ['connections', 'blocks', 'block_connections', 'elapsed_ms', 'conns_per_s', ...rttColumns('connect'), ...cpuColumns('conn')],
  blockColumns: ['connections', 'elapsed_ms', 'conns_per_s', ...cpuColumns('conn')],
  table: [['conns', 'connections'], ['conns/s', 'conns_per_s'], ['p50 µs', 'connect_p50_us'], ['p99', 'connect_p99_us'], ['max', 'connect_max_us'],
    ['cpu µs/conn cli', 'client_cpu_us_per_conn'], ['srv', 'server_cpu_us_per_conn']],
  primary: 'conns_per_s',
  summary: {
    conns_per_s: { label: 'connections per second', short: 'conns/s', unit: 'conns/s', better: 'higher' },
    connect_p50_us: { label: 'median connection time', short: 'connect p50 µs', unit: 'us', better: 'lower' },
    connect_p99_us: { label: '99th percentile connection time', short: 'connect p99 µs', unit: 'us', better: 'lower' },
    client_cpu_us_per_conn: { label: 'client CPU per connection', short: 'client CPU µs/conn', unit: 'us/conn', better: 'lower' },
    server_cpu_us_per_conn: { label: 'server CPU per connection', short: 'server CPU µs/conn', unit: 'us/conn', better: 'lower' },
    ...mechanismSummary('conn', 'connection'),
  },
  fixture: { server: 'greeter', proxy: false },
  connections: (depth) => depth,
  needs: 'stream',
  run(spec, context) {
    return measureLoads(connectWorkload, spec, context, (target) => createConnector(target, spec), (lanes) => ({
      minUnits: MIN_PER_LOOP * spec.depth, units: 'connections', floor: `${MIN_PER_LOOP} × --depth ${spec.depth}`,
      figures: (x) => unitFigures(x, { count: 'connections', rate: 'conns_per_s', per: 'conn' }),
      extra: (t, i) => rttFigures('connect', lanes[i].histogram),
    }));
  },
};

/**
 * The message of a connect that ran out of ephemeral ports.
 * @param {number} done connections made in this trial before it
 * @param {{ ip_local_port_range: string | null, tcp_tw_reuse: number | null }} limits
 */
export function portsExhausted(done, limits) {
  return `TCP ran out of ephemeral ports (EADDRNOTAVAIL) after ${done} connections in this trial: closed connections hold their port in TIME_WAIT for 60 s (port range ${limits.ip_local_port_range ?? 'unknown'}, net.ipv4.tcp_tw_reuse ${limits.tcp_tw_reuse ?? 'unknown'}); use a shorter --duration, fewer runs, or wait a minute between sweeps`;
}

/**
 * A lane of connect loops to one target.
 * @param {import('../client/transport.js').Target} target
 * @param {import('./workload.js').TrialSpec} spec
 */
async function createConnector(target, spec) {
  const [{ connect }, { readGreeting }] = await Promise.all([import('../client/transport.js'), import('../client/pipeline.js')]);
  let made = 0;
  /** @type {Error | undefined} */
  let failure;
  /** @type {Set<import('node:net').Socket>} */
  const open = new Set();

  /**
   * One connection: connect, read the greeting, close.
   * @param {import('node:perf_hooks').RecordableHistogram | undefined} histogram
   */
  const once = async (histogram) => {
    const t0 = performance.now();
    let socket;
    try {
      socket = await connect(target, { noDelay: spec.noDelay, timeoutMs: spec.timeoutMs, server: connectWorkload.fixture.server });
    } catch (error) {
      const message = /** @type {Error} */ (error).message;
      if (message.includes('EADDRNOTAVAIL')) throw new RunError(portsExhausted(made, readNetLimits()), 'ERR_PORTS');
      throw error;
    }
    open.add(socket);
    try {
      await readGreeting(socket, CONNECT_GREETING, spec.timeoutMs);
      histogram?.record(Math.max(1, Math.round((performance.now() - t0) * 1e6)));
      made++;
    } finally {
      socket.destroy();
      open.delete(socket);
    }
  };

  return {
    /** @type {import('../client/blocks.js').Lane['block']} */
    block: (n, histogram) => loopBlock(n, spec.depth, () => once(histogram), () => failure),
    /** @param {Error} error */
    abort(error) {
      failure ??= error;
      for (const socket of open) socket.destroy(error);
    },
  };
}
