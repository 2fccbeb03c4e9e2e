/**
 * Resolve and validate command options before anything starts. Every
 * problem is a UsageError naming the flag and the accepted range.
 */
import net from 'node:net';
import { UsageError } from '../core/errors.js';
import { newSeed } from '../core/random.js';
import { checkSocketPath } from '../fixture/socket-file.js';
import { MAX_PACKETS } from '../core/limits.js';
import { toDuration, toInteger, toPacketSize, toWarmup } from '../core/units.js';
import { WORKLOADS, getWorkload } from '../workloads/index.js';

/**
 * A loopback address, decided without any name lookup: an IPv4 address in
 * 127.0.0.0/8, ::1, or the name localhost.
 * @param {string} host
 */
export function isLoopback(host) {
  if (host === 'localhost') return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  return net.isIPv6(host) && /^(0{0,4}:){2,7}0{0,3}1$|^::1$/.test(host);
}

const LOOPBACK_RANGE = 'an IPv4 address in 127.0.0.0/8, ::1 or localhost';

/**
 * @param {string | number | undefined} text
 * @param {string} flag
 */
function toPort(text, flag) {
  return toInteger(text ?? '', flag, { min: 0, max: 65535 });
}

/**
 * @param {string | number} text
 * @param {string} flag
 */
export function toSeed(text, flag) {
  return toInteger(text, flag, { min: 0, max: 2 ** 32 - 1 });
}

/**
 * @param {string | undefined} text
 * @param {string} flag
 * @returns {('tcp' | 'uds')[]}
 */
function toTransports(text, flag) {
  if (text === 'tcp' || text === 'uds') return [text];
  if (text === 'both' || text === undefined) return ['tcp', 'uds'];
  throw new UsageError(`${flag} must be tcp, uds or both; got ${JSON.stringify(text)}`);
}

/**
 * A value on a workload's axis: a power of two within its range, or (for a
 * fixed axis such as the connect workload's 12-byte greeting) that value.
 * @param {string | number} text
 * @param {import('../workloads/workload.js').Axis} axis
 * @param {string} flag
 */
export function toAxisValue(text, axis, flag) {
  if (axis.min === axis.max) {
    if (Number(String(text).trim()) !== axis.min) throw new UsageError(`${flag} is fixed at ${axis.min} (${axis.label}) for this workload; got ${JSON.stringify(String(text))}`);
    return axis.min;
  }
  return axis.powerOfTwo ? toPacketSize(text, flag, { min: axis.min, max: axis.max }) : toInteger(text, flag, { min: axis.min, max: axis.max });
}

/**
 * Refuse options a workload does not take, naming the flag and who takes it.
 * @param {import('../workloads/workload.js').Workload} workload
 * @param {Record<string, unknown>} given option name → value (undefined: not given)
 * @param {(name: string) => string} flagOf how to name an option in the message
 */
export function checkWorkloadOptions(workload, given, flagOf) {
  for (const [name, value] of Object.entries(given)) {
    if (value === undefined || workload.options.includes(/** @type {any} */ (name))) continue;
    const takers = Object.values(WORKLOADS).filter((w) => w.options.includes(/** @type {any} */ (name))).map((w) => w.name);
    throw new UsageError(`${flagOf(name)} applies to the ${takers.join(' and ')} workload${takers.length === 1 ? '' : 's'}, not ${workload.name}`);
  }
}

/**
 * `serve` options.
 * @param {{ workload?: string, host?: string, port?: string, uds?: string, greeting?: boolean, nagle?: boolean, json?: boolean, allowRemote?: boolean }} raw
 */
export function resolveServeOptions(raw) {
  const workload = getWorkload(raw.workload ?? 'echo');
  if (raw.greeting && workload.fixture.server !== 'echo') throw new UsageError(`--greeting applies to the echo server, not the ${workload.fixture.server} server of --workload ${workload.name}`);
  const host = raw.host ?? '127.0.0.1';
  if (host.length === 0) throw new UsageError('--host must be an address to bind, e.g. 127.0.0.1');
  if (!isLoopback(host) && !raw.allowRemote) {
    throw new UsageError(`--host must be a loopback address (${LOOPBACK_RANGE}); got ${JSON.stringify(host)}. Add --allow-remote to bind it anyway: the echo server would be reachable from other machines`);
  }
  return {
    handler: workload.fixture.server,
    host,
    port: toPort(raw.port ?? 0, '--port'),
    path: raw.uds === undefined ? undefined : checkSocketPath(raw.uds, '--uds'),
    greeting: Boolean(raw.greeting),
    noDelay: !raw.nagle,
    json: Boolean(raw.json),
  };
}

/**
 * `HOST:PORT` of a loopback echo server.
 * @param {string} text
 */
function toTcpTarget(text) {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(text);
  if (!match) throw new UsageError(`--tcp must be HOST:PORT, e.g. 127.0.0.1:5555; got ${JSON.stringify(text)}`);
  const host = match[1] ?? match[2];
  if (!isLoopback(host)) {
    throw new UsageError(`--tcp host must be a loopback address (${LOOPBACK_RANGE}): udsvstcp measures local transports only; got ${JSON.stringify(host)}`);
  }
  return { transport: /** @type {const} */ ('tcp'), host, port: toInteger(match[3], '--tcp port', { min: 1, max: 65535 }) };
}

/**
 * @typedef {object} RunOptions
 * @property {import('../workloads/workload.js').Workload} workload
 * @property {{ tcp?: import('../client/transport.js').TcpTarget, uds?: import('../client/transport.js').UdsTarget } | undefined} targets undefined: start our own server
 * @property {('tcp' | 'uds')[]} transports
 * @property {number} size
 * @property {number} depth
 * @property {import('../workloads/workload.js').Amount} measure
 * @property {import('../workloads/workload.js').Amount} warmup
 * @property {number} seed
 * @property {boolean} noDelay
 * @property {number} timeoutMs
 * @property {number} runs
 * @property {boolean} greeting
 * @property {number} pipelining
 * @property {boolean} keepalive
 * @property {string | undefined} nginx
 * @property {boolean} json
 */

/** Flags of the depth axis, by workload: `--connections` for the HTTP ones, `--depth` otherwise. */
const DEPTH_FLAGS = ['--depth', '--connections'];

/**
 * `run` options.
 * @param {Record<string, any>} raw as commander parsed them (strings)
 * @returns {RunOptions}
 */
export function resolveRunOptions(raw) {
  const workload = getWorkload(raw.workload ?? 'echo');
  const { size: sizeAxis, depth: depthAxis } = workload.axes;
  for (const flag of DEPTH_FLAGS) {
    const key = flag.slice(2);
    if (raw[key] !== undefined && flag !== depthAxis.flag) {
      const takers = Object.values(WORKLOADS).filter((w) => w.axes.depth.flag === flag).map((w) => w.name);
      throw new UsageError(`${flag} applies to the ${takers.join(' and ')} workload${takers.length === 1 ? '' : 's'}; ${workload.name} takes ${depthAxis.flag} (${depthAxis.label})`);
    }
  }
  checkWorkloadOptions(workload, { greeting: raw.greeting || undefined, pipelining: raw.pipelining, keepalive: raw.keepalive || undefined }, (name) => `--${name}`);
  if (raw.nginx !== undefined && workload.fixture.proxy === false) throw new UsageError(`--nginx applies to the proxy workload, not ${workload.name}`);
  const size = toAxisValue(raw.size ?? sizeAxis.fallback, sizeAxis, '--size');
  const depth = toAxisValue(raw[depthAxis.flag.slice(2)] ?? depthAxis.fallback, depthAxis, depthAxis.flag);
  workload.check?.(size, depth, `--size × ${depthAxis.flag}`);
  if (raw.packets !== undefined && raw.duration !== undefined) {
    throw new UsageError('--packets and --duration exclude each other: give one');
  }
  if (raw.packets !== undefined && !workload.counts) throw new UsageError(`--packets applies to the echo workload; ${workload.name} measures a --duration`);
  const measure = raw.packets !== undefined
    ? { packets: toInteger(raw.packets, '--packets', { min: 1, max: MAX_PACKETS }) }
    : { ms: toDuration(raw.duration ?? '1s', '--duration', { min: 10, max: 3_600_000 }) };
  const warmup = toWarmup(raw.warmup ?? '250ms', '--warmup');
  if ('packets' in warmup && !workload.counts && warmup.packets > 0) throw new UsageError(`--warmup ${raw.warmup}: ${workload.name} takes a warmup time (e.g. 250ms), not a count`);

  let transports = toTransports(raw.transport, '--transport');
  /** @type {RunOptions['targets']} */
  let targets;
  if (raw.tcp !== undefined || raw.uds !== undefined) {
    if (workload.fixture.proxy) throw new UsageError('--tcp and --uds are not for the proxy workload: it starts its own app server and nginx');
    targets = {};
    if (raw.tcp !== undefined) targets.tcp = toTcpTarget(raw.tcp);
    if (raw.uds !== undefined) targets.uds = { transport: 'uds', path: checkSocketPath(raw.uds, '--uds') };
    if (raw.transport === undefined) transports = transports.filter((t) => targets?.[t]);
    for (const t of transports) {
      if (!targets[t]) throw new UsageError(`--transport ${raw.transport} needs --${t} ${t === 'tcp' ? 'HOST:PORT' : 'PATH'} when a target is given (or give no target to start a server)`);
    }
  }
  return {
    workload,
    targets,
    transports,
    size,
    depth,
    measure,
    warmup,
    seed: raw.seed === undefined ? newSeed() : toSeed(raw.seed, '--seed'),
    noDelay: !raw.nagle,
    timeoutMs: toDuration(raw.timeout ?? '10s', '--timeout', { min: 10, max: 600_000 }),
    runs: toInteger(raw.runs ?? '1', '--runs', { min: 1, max: 1000 }),
    greeting: Boolean(raw.greeting),
    pipelining: raw.pipelining === undefined ? 1 : toInteger(raw.pipelining, '--pipelining', { min: 1, max: 256 }),
    keepalive: Boolean(raw.keepalive),
    nginx: raw.nginx,
    json: Boolean(raw.json),
  };
}
