/** Resolve and validate command options before anything starts; every problem is a UsageError naming the flag and range. */
import net from 'node:net';
import { UsageError } from '../core/errors.js';
import { newSeed } from '../core/random.js';
import { requireNetns } from '../fixture/netns.js';
import { checkNginxConnections } from '../fixture/nginx.js';
import { checkSocketPath } from '../fixture/socket-file.js';
import { toInteger } from '../core/units.js';
import { findNode } from '../core/node-executables.js';
import { DEFAULT_WORKLOAD, WORKLOADS, WORKLOAD_NAMES, connectionsAt, getWorkload, outsideServer } from '../workloads/index.js';
import { checkNetnsTransports, checkServerHandler, checkWorkloadTransports, resolveAmounts, resolveWorkloadOptions, toAxisValue, toTransportList } from './rules.js';
import { checkApplies, defaultOf, parseSetting, toFlag } from './settings.js';
import { TRANSPORTS, getTransport } from '../transports/index.js';

/**
 * run's --node: one executable; a list is sweep's (`run --node node,node` said "node,node: not found on PATH").
 * @param {string} given
 */
function oneNode(given) {
  if (given.includes(',')) throw new UsageError(`--node takes one Node executable for run, a path or a name on PATH; got ${JSON.stringify(given)} (a list of Nodes to compare is sweep's: sweep --node ${given})`);
  return given;
}

/**
 * A loopback address, decided without any name lookup: an IPv4 address in 127.0.0.0/8, ::1, or localhost.
 * @param {string} host
 */
export function isLoopback(host) {
  if (host === 'localhost') return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  return net.isIPv6(host) && /^(0{0,4}:){2,7}0{0,3}1$|^::1$/.test(host);
}

const LOOPBACK_RANGE = 'an IPv4 address in 127.0.0.0/8, ::1 or localhost';

/**
 * @param {{ workload?: string, host?: string, port?: string, uds?: string, greeting?: boolean, nagle?: boolean, allowRemote?: boolean }} raw
 */
export function resolveServeOptions(raw) {
  const workload = getWorkload(raw.workload ?? DEFAULT_WORKLOAD);
  const outside = outsideServer(workload);
  if (outside) throw new UsageError(`serve --workload ${workload.name}: its server is ${outside}, not one of ours; \`run --workload ${workload.name}\` and \`sweep ${workload.name}\` start one`);
  const handler = /** @type {Exclude<typeof workload.fixture.server, import('../workloads/index.js').OutsideHandler>} */ (workload.fixture.server);
  checkApplies(workload, { greeting: raw.greeting }, toFlag);
  const host = raw.host ?? String(defaultOf('host', 'serve'));
  if (host.length === 0) throw new UsageError('--host must be an address to bind, e.g. 127.0.0.1');
  if (!isLoopback(host) && !raw.allowRemote) {
    throw new UsageError(`--host must be a loopback address (${LOOPBACK_RANGE}); got ${JSON.stringify(host)}. Add --allow-remote to bind it anyway: the echo server would be reachable from other machines`);
  }
  return {
    handler,
    host,
    port: parseSetting('port', raw.port ?? defaultOf('port', 'serve')),
    path: raw.uds === undefined ? undefined : checkSocketPath(raw.uds, '--uds'),
    greeting: Boolean(raw.greeting),
    noDelay: !raw.nagle,
  };
}

/** The transports a server not ours can be given for, each by the flag named after it (lib/transports/ `target`). */
const TARGETED = TRANSPORTS.filter((t) => getTransport(t).target);
/** @param {string} joiner @returns {string} --tcp or --uds */
const targetFlags = (joiner) => TARGETED.map((t) => `--${t}`).join(joiner);

/**
 * A server not ours, as its transport's flag gives it: `HOST:PORT` of a loopback address, or a socket file's PATH.
 * @param {string} transport
 * @param {string} text
 * @returns {import('../client/transport.js').Target}
 */
function toTarget(transport, text) {
  const flag = `--${transport}`;
  if (getTransport(transport).target === 'PATH') return { transport, path: checkSocketPath(text, flag) };
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(text);
  if (!match) throw new UsageError(`${flag} must be HOST:PORT, e.g. 127.0.0.1:5555; got ${JSON.stringify(text)}`);
  const host = match[1] ?? match[2];
  if (!isLoopback(host)) {
    throw new UsageError(`${flag} host must be a loopback address (${LOOPBACK_RANGE}): udsvstcp measures local transports only; got ${JSON.stringify(host)}`);
  }
  return { transport, host, port: toInteger(match[3], `${flag} port`, { min: 1, max: 65535 }) };
}

/**
 * @typedef {Pick<import('../sweep/spec.js').SweepSpec, 'measure' | 'warmup' | 'seed' | 'noDelay' | 'timeoutMs' | 'runs' | 'greeting' | 'pipelining' | 'clients' | 'batch' | 'keepalive' | 'arrivals' | 'connections' | 'pin' | 'portProxy'> & RunOnly} RunOptions
 *   `run`'s settings, resolved as a sweep's are, and:
 * @typedef {object} RunOnly
 * @property {import('../workloads/workload.js').Workload} workload
 * @property {Record<string, import('../client/transport.js').Target> | undefined} targets by transport (tcp, uds); undefined: start our own server
 * @property {string[]} transports tcp, uds, uds-abstract … (lib/transports/), in the order given
 * @property {number} size
 * @property {number} depth
 * @property {string | undefined} nginx
 * @property {string | undefined} redisServer --redis-server: the redis-server executable (redis)
 * @property {string | null} [postgresBin] --postgres-bin: the directory of initdb and postgres (postgres)
 * @property {import('../core/node-executables.js').NodeExecutable | undefined} node --node: the server and the client trial
 *   run on it (the client in a child process); undefined: the server on this Node, the client in this process
 * @property {boolean} probe run the wake-up probe first
 * @property {string | null} netns --server-netns: iproute2's ip (lib/fixture/netns.js); null: the server on the host
 * @property {number | null} serverWorkUs --server-work: µs of CPU the server spins per packet (echo) or request (http); null: none
 * @property {number | null} serverDelayMs --server-delay: ms the server waits, asynchronously, before each echo or answer; null: none
 */

/**
 * Without --workload: the first workload (lib/workloads/ order) whose depth flag was given and which takes every other
 * option given (--rate: rate; --rate with --connections: http-rate; --connections: http), else the first whose depth
 * flag was given (its refusal then names the option that does not fit), else the default.
 * @param {Record<string, any>} raw
 */
function impliedWorkload(raw) {
  const takesAll = (/** @type {import('../workloads/workload.js').Workload} */ w) => {
    try {
      checkApplies(w, { ...raw, [w.axes.depth.flag.slice(2)]: undefined }, (key) => key);
      return true;
    } catch {
      return false;
    }
  };
  const flagged = WORKLOAD_NAMES.map((n) => WORKLOADS[n]).filter((w) => raw[w.axes.depth.flag.slice(2)] !== undefined);
  // none takes them all: the first whose depth flag was given, so that the refusal names the option that does not fit
  return flagged.find(takesAll) ?? flagged[0] ?? getWorkload(DEFAULT_WORKLOAD);
}

/**
 * @param {Record<string, any>} raw as commander parsed them (strings)
 * @returns {RunOptions}
 */
export function resolveRunOptions(raw) {
  const workload = raw.workload === undefined ? impliedWorkload(raw) : getWorkload(raw.workload);
  const { size: sizeAxis, depth: depthAxis } = workload.axes;
  const extras = resolveWorkloadOptions(workload, raw, toFlag);
  const size = toAxisValue(raw.size ?? sizeAxis.fallback, sizeAxis, '--size');
  const depth = toAxisValue(raw[depthAxis.flag.slice(2)] ?? depthAxis.fallback, depthAxis, depthAxis.flag);
  workload.check?.(size, depth, `--size × ${depthAxis.flag}`, extras);
  if (workload.fixture.proxy) checkNginxConnections(connectionsAt(workload, depth, extras), workload.options.includes('connections') ? '--connections' : depthAxis.flag);
  const { measure, warmup } = resolveAmounts(workload, { packets: raw.packets, duration: raw.duration, warmup: raw.warmup ?? defaultOf('warmup', 'run') }, toFlag, String(defaultOf('duration', 'run')));

  let transports = toTransportList(raw.transport ?? 'both', '--transport');
  checkWorkloadTransports(workload, transports, '--transport');
  checkServerHandler(transports, { serverWork: raw.serverWork, serverDelay: raw.serverDelay }, toFlag);
  /** @type {RunOptions['targets']} */
  let targets;
  const given = TARGETED.filter((t) => raw[t] !== undefined);
  if (given.length) {
    if (workload.fixture.proxy) throw new UsageError(`${targetFlags(' and ')} are not for the proxy workload: it starts its own app server and nginx`);
    if (outsideServer(workload)) throw new UsageError(`${targetFlags(' and ')} are not for the ${workload.name} workload: it starts ${outsideServer(workload)} of its own`);
    targets = Object.fromEntries(given.map((t) => [t, toTarget(t, raw[t])]));
    if (raw.transport === undefined) transports = transports.filter((t) => targets?.[t]);
    for (const t of transports) {
      const declared = getTransport(t);
      if (declared.channel) continue; // a message transport's echo is the trial's own
      if (!declared.target) throw new UsageError(`--transport ${t} needs a server of ours: give no ${targetFlags(' or ')} target (they name ${TARGETED.join(' and ')} servers only)`);
      if (!targets[t]) throw new UsageError(`--transport ${raw.transport} needs --${t} ${declared.target} when a target is given (or give no target to start a server)`);
    }
  }
  const handled = ['serverWork', 'serverDelay'].find((key) => raw[key] !== undefined);
  if (handled && targets) throw new UsageError(`${toFlag(handled)} is done by the server udsvstcp starts: not with ${targetFlags(' or ')} (a server not ours)`);
  if (raw.portProxy && !raw.serverNetns) throw new UsageError('--port-proxy needs --server-netns: the port proxy forwards from host loopback to the server\'s address in its network namespace');
  if (raw.serverNetns && targets) throw new UsageError(`--server-netns runs the server udsvstcp starts in a network namespace: not with ${targetFlags(' or ')} (a server not ours)`);
  if (raw.serverNetns) checkNetnsTransports(transports, '--transport', '--server-netns');
  const netns = raw.serverNetns ? requireNetns('--server-netns').path : null;
  return {
    workload,
    targets,
    transports,
    size,
    depth,
    measure,
    warmup,
    seed: raw.seed === undefined ? newSeed() : parseSetting('seed', raw.seed),
    noDelay: !raw.nagle,
    timeoutMs: parseSetting('timeout', raw.timeout ?? defaultOf('timeout', 'run')),
    runs: parseSetting('runs', raw.runs ?? defaultOf('runs', 'run')),
    ...extras,
    nginx: extras.nginx ?? undefined,
    redisServer: extras.redisServer ?? undefined,
    node: raw.node === undefined ? undefined : findNode(oneNode(String(raw.node))), // found and asked last: it runs a program
    probe: Boolean(raw.probe),
    pin: parseSetting('pin', raw.pin ?? defaultOf('pin', 'run')),
    netns,
    portProxy: Boolean(raw.portProxy),
    serverWorkUs: raw.serverWork === undefined ? null : parseSetting('serverWork', raw.serverWork) * 1000,
    serverDelayMs: raw.serverDelay === undefined ? null : parseSetting('serverDelay', raw.serverDelay),
  };
}
