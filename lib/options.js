/**
 * Resolve and validate command options before anything starts. Every
 * problem is a UsageError naming the flag and the accepted range.
 */
import net from 'node:net';
import { UsageError } from './errors.js';
import { newSeed } from './random.js';
import { checkSocketPath } from './socket-file.js';
import { MAX_DEPTH, MAX_IN_FLIGHT, MAX_PACKETS, MAX_SIZE } from './limits.js';
import { formatSize, toDuration, toInteger, toPacketSize, toWarmup } from './units.js';

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
export function toPort(text, flag) {
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
export function toTransports(text, flag) {
  if (text === 'tcp' || text === 'uds') return [text];
  if (text === 'both' || text === undefined) return ['tcp', 'uds'];
  throw new UsageError(`${flag} must be tcp, uds or both; got ${JSON.stringify(text)}`);
}

/**
 * @param {number} size
 * @param {number} depth
 * @param {string} flags
 */
export function checkInFlight(size, depth, flags) {
  if (size * depth > MAX_IN_FLIGHT) {
    throw new UsageError(`${flags}: size × depth must be at most ${formatSize(MAX_IN_FLIGHT)} in flight; got ${formatSize(size)} × ${depth} = ${formatSize(size * depth)}`);
  }
}

/**
 * `serve` options.
 * @param {{ host?: string, port?: string, uds?: string, greeting?: boolean, nagle?: boolean, json?: boolean, allowRemote?: boolean }} raw
 */
export function resolveServeOptions(raw) {
  const host = raw.host ?? '127.0.0.1';
  if (host.length === 0) throw new UsageError('--host must be an address to bind, e.g. 127.0.0.1');
  if (!isLoopback(host) && !raw.allowRemote) {
    throw new UsageError(`--host must be a loopback address (${LOOPBACK_RANGE}); got ${JSON.stringify(host)}. Add --allow-remote to bind it anyway: the echo server would be reachable from other machines`);
  }
  return {
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
 * @property {{ tcp?: import('./transport.js').TcpTarget, uds?: import('./transport.js').UdsTarget } | undefined} targets undefined: start our own server
 * @property {('tcp' | 'uds')[]} transports
 * @property {number} size
 * @property {number} depth
 * @property {import('./workloads/echo.js').Amount} measure
 * @property {import('./workloads/echo.js').Amount} warmup
 * @property {number} seed
 * @property {boolean} noDelay
 * @property {number} timeoutMs
 * @property {number} runs
 * @property {boolean} greeting
 * @property {boolean} json
 */

/**
 * `run` options.
 * @param {Record<string, any>} raw as commander parsed them (strings)
 * @returns {RunOptions}
 */
export function resolveRunOptions(raw) {
  const size = toPacketSize(raw.size ?? '64', '--size', { max: MAX_SIZE });
  const depth = toInteger(raw.depth ?? '1', '--depth', { min: 1, max: MAX_DEPTH });
  checkInFlight(size, depth, '--size × --depth');
  if (raw.packets !== undefined && raw.duration !== undefined) {
    throw new UsageError('--packets and --duration exclude each other: give one');
  }
  const measure = raw.packets !== undefined
    ? { packets: toInteger(raw.packets, '--packets', { min: 1, max: MAX_PACKETS }) }
    : { ms: toDuration(raw.duration ?? '1s', '--duration', { min: 10, max: 3_600_000 }) };
  const warmup = toWarmup(raw.warmup ?? '250ms', '--warmup');

  let transports = toTransports(raw.transport, '--transport');
  /** @type {RunOptions['targets']} */
  let targets;
  if (raw.tcp !== undefined || raw.uds !== undefined) {
    targets = {};
    if (raw.tcp !== undefined) targets.tcp = toTcpTarget(raw.tcp);
    if (raw.uds !== undefined) targets.uds = { transport: 'uds', path: checkSocketPath(raw.uds, '--uds') };
    if (raw.transport === undefined) transports = transports.filter((t) => targets?.[t]);
    for (const t of transports) {
      if (!targets[t]) throw new UsageError(`--transport ${raw.transport} needs --${t} ${t === 'tcp' ? 'HOST:PORT' : 'PATH'} when a target is given (or give no target to start a server)`);
    }
  }
  return {
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
    json: Boolean(raw.json),
  };
}
