/**
 * The http and proxy workloads (docs/workloads.md#http-and-proxy--the-2017-nginx-test), as their `what` says, through
 * lib/client/http-load.js; proxy charges nginx's CPU, from /proc, per request too. http-rate and proxy-rate: the same in
 * open loop, with the rate workload's figures and rules (./rate.js, docs/openloop.md).
 */
import { RunError } from '../core/errors.js';
import { MAX_SIZE } from '../core/limits.js';
import { cpuColumns, measureLoads, mechanismSummary, rttColumns, rttFigures, unitFigures } from './common.js';
import { inFlightCap, openLoops, openTwin, rate } from './rate.js';

/** A block holds at least this many requests per request slot (connections × pipelining). */
export const FILL_FACTOR = 20;

const COLUMNS = ['requests', 'blocks', 'block_requests', 'elapsed_ms', 'req_per_s', 'mb_per_s', ...rttColumns('latency')];
const BLOCK_COLUMNS = ['requests', 'elapsed_ms', 'req_per_s'];
const TABLE = /** @type {[string, string][]} */ ([['requests', 'requests'], ['req/s', 'req_per_s'], ['p50 µs', 'latency_p50_us'], ['p99', 'latency_p99_us'],
  ['cpu µs/req cli', 'client_cpu_us_per_req'], ['srv', 'server_cpu_us_per_req']]);
const SUMMARY = {
  req_per_s: { label: 'requests per second', short: 'req/s', unit: 'req/s', better: /** @type {const} */ ('higher') },
  latency_p50_us: { label: 'median request latency', short: 'latency p50 µs', unit: 'us', better: /** @type {const} */ ('lower') },
  latency_p99_us: { label: '99th percentile request latency', short: 'latency p99 µs', unit: 'us', better: /** @type {const} */ ('lower') },
  client_cpu_us_per_req: { label: 'client CPU per request', short: 'client CPU µs/req', unit: 'us/req', better: /** @type {const} */ ('lower') },
  server_cpu_us_per_req: { label: 'app server CPU per request', short: 'server CPU µs/req', unit: 'us/req', better: /** @type {const} */ ('lower') },
};

/** @type {import('./workload.js').Workload} */
export const httpWorkload = {
  name: 'http',
  what: 'keep-alive HTTP/1.1 GETs of an n-byte body from a Node http server, `connections` connections, `pipelining` requests in flight on each',
  timed: 'a block: from its first request to the last byte of its last response body, nothing in flight at either edge; per request, from its dispatch to its last body byte',
  axes: {
    size: { label: 'body size', short: 'body', flag: '--size', min: 1, max: MAX_SIZE, fallback: 64, powerOfTwo: true },
    depth: { label: 'connections', short: 'connections', flag: '--connections', min: 1, max: 1024, fallback: 10 },
  },
  options: ['pipelining'],
  counts: false,
  columns: [...COLUMNS, ...cpuColumns('req')],
  blockColumns: [...BLOCK_COLUMNS, ...cpuColumns('req')],
  table: [...TABLE, ['elu cli', 'client_elu']],
  primary: 'req_per_s',
  summary: { ...SUMMARY, ...mechanismSummary('req', 'request') },
  fixture: { server: 'http', proxy: false },
  connections: (depth) => depth,
  needs: 'stream',
  run: (spec, context) => runHttp(spec, context, false),
};

/** @type {import('./workload.js').Workload} */
export const proxyWorkload = {
  ...httpWorkload,
  name: 'proxy',
  what: 'the http workload through a real nginx on loopback TCP, whose upstream is the app server over TCP or over UDS (the row\'s transport)',
  options: ['pipelining', 'keepalive'],
  columns: [...COLUMNS, ...cpuColumns('req', { proxy: true })],
  blockColumns: [...BLOCK_COLUMNS, ...cpuColumns('req', { proxy: true })],
  table: [...TABLE, ['nginx', 'proxy_cpu_us_per_req'], ['elu cli', 'client_elu']],
  summary: {
    ...SUMMARY,
    proxy_cpu_us_per_req: { label: 'nginx CPU per request', short: 'nginx CPU µs/req', unit: 'us/req', better: 'lower' },
    ...mechanismSummary('req', 'request', { proxy: true }),
  },
  fixture: { server: 'http', proxy: true },
  connections: (depth) => depth, // nginx's upstream connections: one per client connection with a request in flight
  needs: 'upstream',
  run: (spec, context) => runHttp(spec, context, true),
};

/** Keep-alive connections of http-rate and proxy-rate when --connections is not given (the 2017 wrk run had 10), and at most. */
const OPEN_CONNECTIONS = 10;
export const MAX_OPEN_CONNECTIONS = httpWorkload.axes.depth.max;
const openConnections = (/** @type {{ connections?: number | null }} */ options) => options.connections ?? OPEN_CONNECTIONS;

/** @type {import('./workload.js').Workload} */
export const httpRateWorkload = {
  name: 'http-rate',
  what: 'the http workload in open loop: GETs of an n-byte body offered at a fixed rate over `connections` keep-alive connections taking turns, each timed from when it should have been sent',
  timed: `a segment: its requests due on an absolute schedule from its start at the offered rate, request j on connection j mod --connections (queued there while it is busy); it ends when the last body is in. Response time from the intended send, service time from undici's write of the request, schedule lag between the intended send and the pacer's`,
  ...openTwin(httpWorkload),
  options: ['connections', 'arrivals'],
  summary: { ...rate.summary, server_cpu_us_per_req: SUMMARY.server_cpu_us_per_req },
  connections: (_depth, options) => openConnections(options),
  openConnections: { fallback: OPEN_CONNECTIONS, max: MAX_OPEN_CONNECTIONS },
  closed: { workload: 'http', depth: openConnections },
  run: (spec, context) => runHttpRate(spec, context, false),
};

/** @type {import('./workload.js').Workload} */
export const proxyRateWorkload = {
  ...httpRateWorkload,
  name: 'proxy-rate',
  what: 'the proxy workload in open loop: requests through a real nginx, offered at a fixed rate over `connections` keep-alive connections taking turns, each timed from when it should have been sent',
  ...openTwin(proxyWorkload, { proxy: true }),
  options: ['connections', 'arrivals', 'keepalive'],
  summary: { ...httpRateWorkload.summary, proxy_cpu_us_per_req: proxyWorkload.summary.proxy_cpu_us_per_req, ...mechanismSummary('req', 'request', { proxy: true }) },
  closed: { workload: 'proxy', depth: openConnections },
  run: (spec, context) => runHttpRate(spec, context, true),
};

/**
 * http-rate and proxy-rate: a lane per target, each an open-loop HTTP load.
 * @param {import('./workload.js').TrialSpec} spec
 * @param {import('./workload.js').TrialContext} context
 * @param {boolean} proxy
 */
function runHttpRate(spec, context, proxy) {
  const connections = openConnections(spec);
  const loops = openLoops(spec, Math.max(connections, inFlightCap(spec.size))); // echo's payload budget, but at least a request per connection
  return measureHttp(proxy ? proxyRateWorkload : httpRateWorkload, spec, context, (i) => ({ connections, open: loops.lane(i) }), loops.measure);
}

/**
 * @param {import('./workload.js').TrialSpec} spec
 * @param {import('./workload.js').TrialContext} context
 * @param {boolean} proxy
 */
function runHttp(spec, context, proxy) {
  const pipelining = spec.pipelining ?? 1;
  return measureHttp(proxy ? proxyWorkload : httpWorkload, spec, context, () => ({ connections: spec.depth, pipelining }), (lanes) => ({
    minUnits: FILL_FACTOR * spec.depth * pipelining, units: 'requests', floor: `${FILL_FACTOR} × --connections ${spec.depth} × --pipelining ${pipelining}`,
    figures: (x) => unitFigures(x, { count: 'requests', rate: 'req_per_s', per: 'req' }),
    extra: (t, i) => ({ mb_per_s: t.bytes / (t.elapsedMs / 1000) / 1e6, ...rttFigures('latency', lanes[i].histogram) }),
  }));
}

/**
 * A lane per target over its HTTP load (measureLoads), GETs of the size's body; a trial fails when a connection was
 * opened again during a measured block (it timed a connection's setup).
 * @param {import('./workload.js').Workload} workload
 * @param {import('./workload.js').TrialSpec} spec
 * @param {import('./workload.js').TrialContext} context
 * @param {(i: number) => { connections: number, pipelining?: number, open?: import('../client/pipeline.js').OpenLoop }} optionsOf lane i's
 * @param {Parameters<typeof measureLoads>[4]} howOf
 */
async function measureHttp(workload, spec, context, optionsOf, howOf) {
  const { createHttpLoad } = await import('../client/http-load.js');
  const loadOf = (/** @type {import('../client/transport.js').Target} */ target, /** @type {number} */ i) => createHttpLoad(target, {
    path: `/${spec.size}`, expectedBytes: spec.size, timeoutMs: spec.timeoutMs, ...optionsOf(i),
  });
  let connects = 0;
  const result = await measureLoads(workload, spec, context, loadOf, howOf, (t) => { connects += t.connects; });
  if (connects > 0) throw new RunError(`${connects} connection(s) were opened again during measured blocks (the server or nginx closed keep-alive connections): those blocks timed connection setup`, 'ERR_RECONNECT');
  return result;
}
