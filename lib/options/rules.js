/**
 * The rules `run` flags and `sweep` spec keys share, each stated once. Each takes a `name(key)` saying where a value
 * came from (`--packets`, `x.json "packets"`), so a problem is a UsageError naming the flag or key and the accepted range.
 */
import { UsageError } from '../core/errors.js';
import { toInteger, toPacketSize, toWarmup } from '../core/units.js';
import { checkApplies, parseSetting } from './settings.js';
import { MAX_OPEN_CONNECTIONS } from '../workloads/http.js';
import { BASELINE, PAIR, TRANSPORTS, getTransport, isAvailable, isTransport } from '../transports/index.js';

/**
 * A value on a workload's axis: a power of two within its range, or the value of a fixed axis (connect's 12-byte greeting).
 * @param {string | number} text
 * @param {import('../workloads/workload.js').Axis} axis
 * @param {string} flag
 */
export function toAxisValue(text, axis, flag) {
  if (axis.min === axis.max) {
    if (Number(String(text).trim()) !== axis.min) throw new UsageError(`${flag} is fixed at ${axis.min} (${axis.label}) for this workload; got ${JSON.stringify(text)}`);
    return axis.min;
  }
  return axis.powerOfTwo ? toPacketSize(text, flag, { min: axis.min, max: axis.max }) : toInteger(text, flag, { min: axis.min, max: axis.max });
}

/**
 * Options only some workloads take (greeting, pipelining, clients, batch, keepalive, arrivals, connections, nginx, redisServer): refused for others,
 * then bounded (connections: an option of http-rate, proxy-rate and postgres-rate, each with its own most; http's, proxy's
 * and postgres's depth axis, read by the caller).
 * @param {import('../workloads/workload.js').Workload} workload
 * @param {Record<string, unknown>} given by key, undefined (or false for a switch): not given; any other setting given is checked too (lib/options/settings.js)
 * @param {(key: string) => string} name
 */
export function resolveWorkloadOptions(workload, given, name) {
  checkApplies(workload, given, name);
  return {
    greeting: Boolean(given.greeting),
    pipelining: given.pipelining === undefined ? 1 : parseSetting('pipelining', given.pipelining, name),
    clients: given.clients === undefined || given.clients === null ? 1 : /** @type {number} */ (parseSetting('clients', given.clients, name)),
    batch: given.batch === undefined || given.batch === null ? 1 : /** @type {number} */ (parseSetting('batch', given.batch, name)),
    keepalive: Boolean(given.keepalive),
    arrivals: /** @type {'constant' | 'poisson'} */ (given.arrivals === undefined || given.arrivals === null ? 'constant' : parseSetting('arrivals', given.arrivals, name)),
    connections: !workload.options.includes('connections') || given.connections === undefined || given.connections === null ? null : toInteger(/** @type {string | number} */ (given.connections), name('connections'), { min: 1, max: workload.openConnections?.max ?? MAX_OPEN_CONNECTIONS }),
    nginx: given.nginx === undefined || given.nginx === null ? null : String(given.nginx),
    postgresBin: given.postgresBin === undefined || given.postgresBin === null ? null : String(given.postgresBin),
    redisServer: given.redisServer === undefined || given.redisServer === null ? null : String(given.redisServer),
  };
}

/**
 * How much a trial measures per transport, and its warmup: a packet count (workloads that count) or a time, not both.
 * @param {import('../workloads/workload.js').Workload} workload
 * @param {{ packets?: unknown, duration?: unknown, warmup: unknown }} given packets/duration undefined or null: not given
 * @param {(key: string) => string} name
 * @param {string} fallbackDuration when neither is given
 * @returns {{ measure: import('../workloads/workload.js').Amount, warmup: import('../workloads/workload.js').Amount }}
 */
export function resolveAmounts(workload, given, name, fallbackDuration) {
  const has = (/** @type {unknown} */ v) => v !== undefined && v !== null;
  if (has(given.packets) && has(given.duration)) throw new UsageError(`${name('packets')} and ${name('duration')} exclude each other: give one`);
  checkApplies(workload, { packets: given.packets }, name);
  const measure = has(given.packets)
    ? { packets: parseSetting('packets', given.packets, name) }
    : { ms: parseSetting('duration', given.duration ?? fallbackDuration, name) };
  const warmup = toWarmup(/** @type {string | number} */ (given.warmup), name('warmup'));
  if ('packets' in warmup && warmup.packets > 0 && !workload.counts) throw new UsageError(`${name('warmup')} must be a time (e.g. 250ms) for the ${workload.name} workload, not a count; got ${JSON.stringify(given.warmup)}`);
  return { measure, warmup };
}

/**
 * Transports: a list (array, or comma-separated text); `both` is tcp,uds. Each known, named once and on this platform;
 * the order is kept (a trial opens its block sequence with the first). One alone is measured with nothing compared;
 * two or more must include tcp, the baseline of every ratio.
 * @param {unknown} value
 * @param {string} key
 */
export function toTransportList(value, key, platform = process.platform) {
  const list = value === 'both' ? [...PAIR] : typeof value === 'string' ? value.split(',').map((t) => t.trim()) : value;
  if (!Array.isArray(list) || list.length === 0 || list.some((t) => !isTransport(t))) {
    throw new UsageError(`${key} must be one of ${TRANSPORTS.join(', ')}, or a list of them (${TRANSPORTS.slice(0, 3).join(',')}; both is ${PAIR.join(',')}); got ${JSON.stringify(value)}`);
  }
  const names = /** @type {string[]} */ (list);
  const repeated = names.find((t, i) => names.indexOf(t) !== i);
  if (repeated !== undefined) throw new UsageError(`${key} names ${repeated} more than once: give each transport once (of ${TRANSPORTS.join(', ')}); got ${JSON.stringify(value)}`);
  const missing = names.find((t) => !isAvailable(t, platform));
  if (missing !== undefined) {
    throw new UsageError(`${key} ${missing} needs ${getTransport(missing).platforms?.join(' or ')}; this system is ${platform} (use ${PAIR.join(',')})`, 'ERR_PLATFORM');
  }
  if (names.length > 1 && !names.includes(BASELINE)) {
    throw new UsageError(`${key} ${names.join(',')} has no ${BASELINE}: ${getTransport(BASELINE).label} is the baseline every ratio is against, so a list of two or more must include it (e.g. ${[BASELINE, ...names].join(',')}); or give one transport to measure it alone`);
  }
  return [...names];
}

/**
 * Refuse transports a workload cannot measure, naming the key and what it takes.
 * @param {import('../workloads/workload.js').Workload} workload
 * @param {string[]} transports
 * @param {string} key
 */
export function checkWorkloadTransports(workload, transports, key) {
  const takes = TRANSPORTS.filter((t) => getTransport(t).carries.includes(workload.needs));
  const refused = transports.filter((t) => !takes.includes(t));
  if (refused.length) {
    throw new UsageError(`${key} ${refused.join(',')}: the ${workload.name} workload needs a transport that carries ${CAPABILITY_WORDS[workload.needs]}, which ${refused.join(' and ')} ${refused.length === 1 ? 'does' : 'do'} not; it takes ${takes.join(', ')}`);
  }
}

/** The transports that reach a server in a network namespace from the host: TCP over the bridge (or the port proxy) and the socket file. */
const NETNS_TRANSPORTS = TRANSPORTS.filter((t) => getTransport(t).reachesNetns);
/** @param {string[]} items @returns {string} a, b and c */
const listWords = (items) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

/**
 * With --server-netns, only transports that reach into the namespace: an abstract socket belongs to the namespace it
 * was made in, and message transports echo inside the trial, with no server to put there.
 * @param {string[]} transports
 * @param {string} key how to name the transports, e.g. --transport
 * @param {string} netns how to name the namespace option, e.g. --server-netns
 */
export function checkNetnsTransports(transports, key, netns) {
  const outside = transports.filter((t) => !NETNS_TRANSPORTS.includes(t));
  if (outside.length) throw new UsageError(`${key} ${outside.join(',')} cannot reach a server in a network namespace (${netns}): an abstract socket belongs to the namespace it was made in, and ${listWords(TRANSPORTS.filter((t) => getTransport(t).channel))} echo inside the trial itself, with no server to put there; use ${listWords(NETNS_TRANSPORTS)}`);
}

/** What each capability means, for messages. */
const CAPABILITY_WORDS = { messages: 'framed messages', stream: 'a byte stream', upstream: 'a server outside Node (nginx\'s upstream connections, redis-server\'s and PostgreSQL\'s listeners)' };

/**
 * --server-work and --server-delay are done by the server udsvstcp starts: refused beside a message transport, whose
 * echo is the trial's own peer (lib/transports/), which would leave its figures without them.
 * @param {string[]} transports
 * @param {Record<string, unknown>} given serverWork, serverDelay: undefined or null when not given
 * @param {(key: string) => string} name
 */
export function checkServerHandler(transports, given, name) {
  const peer = transports.find((t) => getTransport(t).channel);
  for (const [key, value] of Object.entries(given)) {
    if (peer && value !== undefined && value !== null) throw new UsageError(`${name(key)} is done by the server udsvstcp starts, and ${peer} echoes through the trial's own peer: measure ${peer} without it`);
  }
}
