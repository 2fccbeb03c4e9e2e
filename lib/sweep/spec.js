/**
 * Sweep specs: presets in sweeps/*.json, flags over them, validated into one resolved spec (what meta.json records and
 * --resume checks). Every problem is a UsageError naming the key or flag and what it accepts.
 */
import { basename, join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { MAX_RUNS } from '../core/limits.js';
import { readIfThere } from '../core/files.js';
import { parseJson } from '../core/json-text.js';
import { checkNginxConnections } from '../fixture/nginx.js';
import { checkNetnsTransports, checkServerHandler, checkWorkloadTransports, resolveAmounts, resolveWorkloadOptions, toAxisValue, toTransportList } from '../options/rules.js';
import { DEFAULTS, SPEC_KEYS, checkApplies, checkJsonTypes, parseSetting, toFlag } from '../options/settings.js';
import { DEFAULT_WORKLOAD, WORKLOADS, WORKLOAD_NAMES, connectionsAt, getWorkload, sizeLabel, workloadOf } from '../workloads/index.js';
import { newSeed } from '../core/random.js';
import { MAX_NODES } from '../core/node-executables.js';
import { MiB, formatSize, isPowerOfTwo, parseSize, toInteger } from '../core/units.js';
import { PRESET_DIR, listPresets } from './presets.js';

export { listPresets };
/** Largest spec file read: presets are a few KiB. */
const MAX_SPEC_BYTES = MiB;
/** Deepest nesting of objects and lists in a spec file: a spec needs 3 (its test block's lists). */
const MAX_SPEC_DEPTH = 16;

const KEYS = new Set(SPEC_KEYS);

/**
 * @typedef {object} SweepSpec
 * @property {string} preset
 * @property {string} description
 * @property {boolean} test
 * @property {string} workload
 * @property {number[]} sizes
 * @property {number[]} depths empty: `auto`, the rates the sweep sets from the closed-loop capacity before it starts
 * @property {string[]} transports tcp, uds, uds-abstract … (lib/transports/)
 * @property {number} runs
 * @property {import('../workloads/workload.js').Amount} measure
 * @property {import('../workloads/workload.js').Amount} warmup
 * @property {number} seed
 * @property {'none' | 'split' | 'same'} pin
 * @property {boolean} noDelay
 * @property {boolean} greeting echo: the 2014 greeting
 * @property {number} pipelining http, proxy: requests in flight per connection
 * @property {number} clients redis: ioredis connections per transport, each with `depth` operations in flight
 * @property {number} batch redis: operations per explicit ioredis pipeline (1: none)
 * @property {boolean} keepalive proxy: nginx keeps upstream connections alive
 * @property {'constant' | 'poisson'} arrivals rate: when an open-loop segment's packets are due
 * @property {number | null} connections http-rate, proxy-rate, postgres-rate: connections per transport (null: the workload's default)
 * @property {number | null} serverWorkMs ms of CPU the server spins per packet (echo, one size) or request (http); null: none
 * @property {number | null} serverDelayMs ms the server waits on a timer before each echo or answer; null: none
 * @property {number} timeoutMs stall timeout inside a trial
 * @property {number} trialTimeoutMs hard limit of a trial
 * @property {'blocks' | 'trials'} pairing blocks: TCP and UDS alternate in one trial; trials: one transport per process (2014)
 * @property {'sweep' | 'round'} server one echo server for the whole sweep, or a fresh one for each planned run and each precision round
 * @property {'moderated' | 'own'} intervals UDS/TCP intervals with each group's variance moderated across the groups, or from each group's runs alone
 * @property {number} blockMs block length to aim for
 * @property {number | null} precision target relative half-width of each UDS/TCP interval (0.03 = ±3 %), or none
 * @property {number | null} maxTimeMs no extra run for the precision starts once the sweep would pass this
 * @property {number} maxRuns most runs of one group
 * @property {string[] | null} node the Node executables asked for (paths or names on PATH), the first the baseline;
 *   null: the Node running udsvstcp. A record: each session finds the ones it runs (lib/sweep/node-axis.js)
 * @property {boolean} serverNetns the server in a network namespace of its own, on a bridge (lib/fixture/netns.js)
 * @property {boolean} portProxy with serverNetns: the server's TCP through a port forwarder on host loopback (lib/fixture/port-proxy-main.js)
 * @property {boolean} serverDocker with serverNetns: the server in a real Docker container when a daemon answers (lib/fixture/docker.js)
 */

/**
 * Read a preset by name, or a spec file by path.
 * @param {string} nameOrFile
 */
export function loadSpec(nameOrFile) {
  const isFile = nameOrFile.includes('/') || nameOrFile.endsWith('.json');
  const source = isFile ? nameOrFile : join(PRESET_DIR, `${nameOrFile}.json`);
  const bytes = readIfThere(source, { maxBytes: MAX_SPEC_BYTES, what: 'a sweep spec', follow: true }, `${source}: cannot read`);
  if (!bytes) throw new UsageError(isFile ? `sweep spec file not found: ${nameOrFile}` : `unknown preset "${nameOrFile}"; presets: ${listPresets().join(', ')} (or a path to a .json spec)`);
  let raw;
  try {
    raw = parseJson(bytes.toString('utf8'), MAX_SPEC_DEPTH);
  } catch (error) {
    const err = /** @type {Error} */ (error);
    throw new UsageError(`${source}: ${err instanceof RangeError ? `${err.message}; a sweep spec is an object of keys, with lists in it` : `malformed JSON: ${err.message}`}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new UsageError(`${source}: must hold a JSON object of sweep keys`);
  return { name: basename(source, '.json'), source, raw: /** @type {Record<string, unknown>} */ (raw) };
}

/**
 * Sizes: a list of sizes, or a range `A..B` (every power of two) or `A..B*4` (×4 steps).
 * @param {unknown} value
 * @param {string} key
 * @param {import('../workloads/workload.js').Axis} [axis] its bounds (default: echo packet sizes)
 */
export function toSizes(value, key, axis = getWorkload(DEFAULT_WORKLOAD).axes.size) {
  if (typeof value === 'string') {
    const match = /^\s*([^.]+)\.\.([^*]+?)(?:\*(\d+))?\s*$/.exec(value);
    if (!match) return toSizes(value.split(','), key, axis);
    const [from, to] = [parseSize(match[1]), parseSize(match[2])];
    const step = Number(match[3] ?? 2);
    if (!isPowerOfTwo(from) || !isPowerOfTwo(to) || from > to || !isPowerOfTwo(step) || step < 2) {
      throw new UsageError(`${key} range must be A..B with powers of two A ≤ B, optionally *STEP (a power of two ≥ 2), e.g. 1..16384, 64B..1MiB, 1..64KiB*4; got ${JSON.stringify(value)}`);
    }
    // the range as given, not the first size of it out of bounds (1..2GiB is not "134217728")
    const show = (/** @type {number} */ n) => (axis.format ? String(n) : formatSize(n));
    if (axis.min === axis.max) throw new UsageError(`${key} is fixed at ${axis.min} (${axis.label}) for this workload; got ${JSON.stringify(value)}`);
    if (from < axis.min || to > axis.max) throw new UsageError(`${key} range must lie within ${show(axis.min)} to ${show(axis.max)} (${axis.label}); got ${JSON.stringify(value)}`);
    const sizes = [];
    for (let s = from; s <= to; s *= step) sizes.push(s);
    return sizes.map((s) => toAxisValue(s, axis, key));
  }
  if (!Array.isArray(value) || value.length === 0) throw new UsageError(`${key} must be a non-empty list of sizes or a range such as 1..16384; got ${JSON.stringify(value)}`);
  return [...new Set(value.map((v) => toAxisValue(/** @type {string | number} */ (v), axis, key)))].sort((a, b) => a - b);
}

/**
 * @param {Record<string, unknown>} raw
 * @param {string} where
 */
function checkKeys(raw, where) {
  for (const key of Object.keys(raw)) {
    if (key === 'postgresBin') throw new UsageError(`${where}: "postgresBin" is not read from a spec file: PostgreSQL's executables come only from --postgres-bin, PATH or /usr/lib/postgresql, never from a file that could have been copied or edited`);
    if (key === 'nginx') throw new UsageError(`${where}: "nginx" is not read from a spec file: the nginx binary comes only from --nginx or PATH, never from a file that could have been copied or edited`);
    if (key === 'redisServer') throw new UsageError(`${where}: "redisServer" is not read from a spec file: the redis-server executable comes only from --redis-server or PATH, never from a file that could have been copied or edited`);
    if (key === 'node') throw new UsageError(`${where}: "node" is not read from a spec file: Node executables come only from --node (or the Node running udsvstcp), never from a file that could have been copied or edited`);
    if (!KEYS.has(key)) throw new UsageError(`${where}: unknown key "${key}"; keys: ${[...KEYS].join(', ')}`);
  }
}

/**
 * Merge preset, test block (with --test) and flags, then validate.
 * @param {{ name: string, source: string, raw: Record<string, unknown> }} loaded
 * @param {{ test?: boolean, flags?: Record<string, unknown>, flagNames?: Record<string, string> }} [options] flags: keys as in the spec, already named by flag;
 *   flagNames: the flag that gave a key, where not its own (--rates gives depths)
 * @returns {SweepSpec}
 */
export function resolveSpec(loaded, { test = false, flags = {}, flagNames = {} } = {}) {
  const { source, raw } = loaded;
  checkKeys(raw, source);
  const testBlock = raw.test ?? {};
  if (typeof testBlock !== 'object' || testBlock === null || Array.isArray(testBlock)) throw new UsageError(`${source}: "test" must be an object of keys`);
  checkKeys(/** @type {Record<string, unknown>} */ (testBlock), `${source} "test"`);
  if ('test' in testBlock) throw new UsageError(`${source} "test.test": a "test" block holds the keys it changes for --test, not another "test" block`);

  if (raw.packets !== undefined && raw.duration !== undefined) throw new UsageError(`${source}: "packets" and "duration" exclude each other: give one`);
  /** @type {Record<string, unknown>} */
  const merged = { ...DEFAULTS };
  /** @type {Record<string, string>} where each value came from, for error messages */
  const origin = Object.fromEntries(Object.keys(merged).map((k) => [k, `default "${k}"`]));
  /**
   * @param {Record<string, unknown>} layer
   * @param {(key: string) => string} where
   */
  const apply = (layer, where) => {
    for (const [key, value] of Object.entries(layer)) {
      if (value === undefined) continue;
      merged[key] = value;
      origin[key] = where(key);
      if (key === 'packets') merged.duration = undefined;
      if (key === 'duration') merged.packets = undefined;
    }
  };
  checkJsonTypes(raw, (key) => `${source} "${key}"`);
  checkJsonTypes(/** @type {Record<string, unknown>} */ (testBlock), (key) => `${source} "test.${key}"`);
  apply(raw, (key) => `${source} "${key}"`);
  if (test) apply(/** @type {Record<string, unknown>} */ (testBlock), (key) => `${source} "test.${key}"`);
  apply(flags, (key) => flagNames[key] ?? toFlag(key));
  const name = (/** @type {string} */ key) => origin[key];

  const workload = getWorkload(merged.workload, name('workload'));
  // options the workload does not take first: a preset's axes written for another workload must not hide them
  const given = (/** @type {string} */ key) => (merged[key] === DEFAULTS[/** @type {keyof typeof DEFAULTS} */ (key)] ? undefined : merged[key]);
  for (const key of ['greeting', 'keepalive', 'serverNetns', 'serverDocker', 'portProxy']) parseSetting(key, merged[key], name);
  // where the server runs: not for a server not ours (redis, postgres), before what the others need
  checkApplies(workload, { serverNetns: merged.serverNetns || undefined, serverDocker: merged.serverDocker || undefined, portProxy: merged.portProxy || undefined }, name);
  if (merged.serverDocker && !merged.serverNetns) throw new UsageError(`${name('serverDocker')} needs serverNetns (--server-netns): the namespace emulation runs when no Docker daemon answers`);
  if (merged.portProxy && !merged.serverNetns) throw new UsageError(`${name('portProxy')} needs serverNetns (--server-netns): the port proxy forwards from host loopback to the server's address in its network namespace`);
  if (given('connections') !== undefined && !workload.options.includes('connections')) {
    const takers = WORKLOAD_NAMES.filter((n) => WORKLOADS[n].options.includes('connections')).join(', ').replace(/, ([^,]*)$/, ' and $1');
    throw new UsageError(`${name('connections')} applies to the ${takers} workloads; ${workload.name} ${workload.axes.depth.flag === '--connections' ? 'sweeps its connections as its depths' : 'has none'}`);
  }
  const extras = resolveWorkloadOptions(workload, { greeting: given('greeting'), pipelining: given('pipelining'), clients: given('clients'), batch: given('batch'), keepalive: given('keepalive'), arrivals: given('arrivals'), connections: given('connections') }, name);
  const { measure, warmup } = resolveAmounts(workload, { packets: merged.packets, duration: merged.duration, warmup: merged.warmup }, name, String(DEFAULTS.duration));
  checkApplies(workload, { serverWork: given('serverWork'), serverDelay: given('serverDelay') }, name);
  const handler = (/** @type {'serverWork' | 'serverDelay'} */ key) => (given(key) === undefined || given(key) === null ? null : /** @type {number} */ (parseSetting(key, given(key), name)));
  const serverWorkMs = handler('serverWork');
  const serverDelayMs = handler('serverDelay');
  const { size: sizeAxis, depth: depthAxis } = workload.axes;
  if (merged.sizes === undefined && sizeAxis.min === sizeAxis.max) merged.sizes = [sizeAxis.min];
  if (merged.sizes === undefined) throw new UsageError(`${source}: "sizes" is required (a list, or a range such as 1..16384)`);
  const sizes = toSizes(merged.sizes, name('sizes'), sizeAxis);
  if (origin.depths === 'default "depths"') merged.depths = [depthAxis.fallback];
  // auto: an empty list until the sweep has measured the closed-loop capacity (lib/sweep/rates-auto.js)
  const auto = merged.depths === 'auto';
  if (auto && !workload.closed) throw new UsageError(`${name('depths')} auto is for the open-loop workloads (${WORKLOAD_NAMES.filter((n) => WORKLOADS[n].closed).join(', ')}): their rates from the closed-loop capacity; ${workload.name} takes a list`);
  const depthList = auto ? [] : typeof merged.depths === 'string' ? merged.depths.split(',') : merged.depths;
  if (!auto && (!Array.isArray(depthList) || depthList.length === 0)) throw new UsageError(`${name('depths')} must be a non-empty list of whole numbers from ${depthAxis.min} to ${depthAxis.max} (${depthAxis.label})${workload.closed ? ', or auto' : ''}; got ${JSON.stringify(merged.depths)}`);
  const depths = [...new Set(/** @type {unknown[]} */ (depthList).map((v) => toInteger(/** @type {string | number} */ (v), name('depths'), { min: depthAxis.min, max: depthAxis.max })))].sort((a, b) => a - b);
  if (depths.length) for (const size of sizes) workload.check?.(size, depths[depths.length - 1], `${name('sizes')} × ${name('depths')}`, extras);
  if (serverWorkMs !== null && workload.fixture.server === 'echo' && sizes.length > 1) throw new UsageError(`${name('serverWork')} on the echo server needs a sweep of one size (it spins per packet, and takes the packet's size from the sweep's); got ${sizes.length} sizes`);
  if (workload.fixture.proxy) checkNginxConnections(Math.max(...(depths.length ? depths : [depthAxis.min]).map((depth) => connectionsAt(workload, depth, extras))), workload.options.includes('connections') ? name('connections') : name('depths'));

  const pairing = parseSetting('pairing', merged.pairing, name);
  const transports = toTransportList(merged.transports, name('transports'));
  checkWorkloadTransports(workload, transports, name('transports'));
  checkServerHandler(transports, { serverWork: serverWorkMs, serverDelay: serverDelayMs }, name);
  if (merged.serverNetns) checkNetnsTransports(transports, name('transports'), 'serverNetns, --server-netns');
  // a trial measures each of its transports for duration + warmup
  const perTrial = pairing === 'blocks' ? transports.length : 1;
  const timed = (('ms' in measure ? measure.ms : 0) + ('ms' in warmup ? warmup.ms : 0)) * perTrial;
  let trialTimeoutMs = timed + 60_000; // default: the times asked for plus a minute
  if (merged.trialTimeout !== null && merged.trialTimeout !== undefined) {
    trialTimeoutMs = parseSetting('trialTimeout', merged.trialTimeout, name);
    if (trialTimeoutMs <= timed) throw new UsageError(`${name('trialTimeout')} must exceed (duration + warmup) × transports per trial (${timed / 1000} s); got ${trialTimeoutMs / 1000} s`);
  }
  return {
    preset: loaded.name,
    description: /** @type {string} */ (merged.description ?? ''),
    test,
    workload: workload.name,
    sizes,
    depths,
    transports,
    runs: parseSetting('runs', merged.runs, name),
    measure,
    warmup,
    seed: merged.seed === null || merged.seed === undefined ? newSeed() : parseSetting('seed', merged.seed, name),
    pin: parseSetting('pin', merged.pin, name),
    noDelay: parseSetting('noDelay', merged.noDelay, name),
    greeting: extras.greeting,
    pipelining: extras.pipelining,
    clients: extras.clients,
    batch: extras.batch,
    keepalive: extras.keepalive,
    arrivals: extras.arrivals,
    connections: extras.connections,
    serverWorkMs,
    serverDelayMs,
    timeoutMs: parseSetting('timeout', merged.timeout, name),
    trialTimeoutMs,
    pairing,
    server: parseSetting('server', merged.server, name),
    intervals: parseSetting('intervals', merged.intervals, name),
    blockMs: parseSetting('block', merged.block, name),
    precision: merged.precision === null || merged.precision === undefined ? null : toPrecision(merged.precision, name('precision')),
    maxTimeMs: merged.maxTime === null || merged.maxTime === undefined ? null : parseSetting('maxTime', merged.maxTime, name),
    maxRuns: MAX_RUNS,
    node: toNodeList(merged.node, name('node')),
    serverNetns: /** @type {boolean} */ (merged.serverNetns),
    portProxy: /** @type {boolean} */ (merged.portProxy),
    serverDocker: Boolean(merged.serverDocker),
  };
}

/**
 * Node executables: a list (or a comma-separated string) of paths or names on PATH, at most MAX_NODES; null: none
 * given. Only their form is checked here (lib/core/node-executables.js finds and asks them).
 * @param {unknown} value
 * @param {string} key
 * @returns {string[] | null}
 */
export function toNodeList(value, key) {
  if (value === null || value === undefined) return null;
  const list = typeof value === 'string' ? value.split(',').map((v) => v.trim()) : value;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_NODES || !list.every((v) => typeof v === 'string' && v.trim() !== '' && v.length <= 4096)) {
    throw new UsageError(`${key} must be a list of 1 to ${MAX_NODES} Node executables, each a path or a name on PATH (e.g. node,/tmp/n26/node_modules/.bin/node); got ${JSON.stringify(value)}`);
  }
  return list;
}

/**
 * A target precision: a percentage (`3%`) or a fraction (0.03), from 0.1 % to 100 %.
 * @param {unknown} value
 * @param {string} key
 */
function toPrecision(value, key) {
  const text = String(value).trim();
  const match = /^(\d+(?:\.\d+)?)\s*(%?)$/.exec(text);
  const fraction = match ? Number(match[1]) / (match[2] ? 100 : 1) : NaN;
  if ((typeof value !== 'string' && typeof value !== 'number') || !(fraction >= 0.001 && fraction <= 1)) {
    throw new UsageError(`${key} must be a relative half-width of the UDS/TCP 95 % interval from 0.1% to 100% (e.g. 3% or 0.03); got ${JSON.stringify(value)}`);
  }
  return fraction;
}

/**
 * An amount for people: 100 packets, 150 ms; with the workload, a count in its units (100 requests).
 * @param {import('../workloads/workload.js').Amount} a
 * @param {import('../workloads/workload.js').Workload} [workload]
 */
export const showAmount = (a, workload) => ('packets' in a ? `${a.packets} ${workload?.columns[0] ?? 'packets'}` : `${a.ms} ms`);

/**
 * The warmup for people, after the measured amount: `after 200 ms warmup`, or `with no warmup` where it is 0 (of a
 * time-paced workload too, whose 0 reads as a count).
 * @param {import('../workloads/workload.js').Amount} a
 * @param {import('../workloads/workload.js').Workload} [workload]
 */
export const warmupWords = (a, workload) => (('packets' in a ? a.packets : a.ms) === 0 ? 'with no warmup' : `after ${showAmount(a, workload)} warmup`);

/** @param {SweepSpec} spec */
export function describeSpec(spec) {
  const w = workloadOf(spec.workload);
  return `${spec.preset}${spec.test ? ' (test mode)' : ''}: sizes ${spec.sizes.map((s) => sizeLabel(spec.workload, s)).join(', ')}; depths ${spec.depths.join(', ')}; ${spec.transports.join(' + ')}; ${spec.runs} run${spec.runs === 1 ? '' : 's'} of ${showAmount(spec.measure, w)} ${warmupWords(spec.warmup, w)}; ${spec.pairing === 'blocks' ? `paired blocks of ~${spec.blockMs} ms` : 'one transport per trial'}${spec.precision === null ? '' : `; more runs until ±${+(spec.precision * 100).toFixed(3)} %${spec.maxTimeMs === null ? '' : ` or ${spec.maxTimeMs / 1000} s`}`}${spec.clients > 1 ? `; ${spec.clients} clients per transport` : ''}${spec.batch > 1 ? `; pipelines of ${spec.batch}` : ''}; seed ${spec.seed}; pin ${spec.pin}; TCP noDelay ${spec.noDelay}${spec.serverWorkMs === null ? '' : `; the server spinning ${+(spec.serverWorkMs * 1000).toFixed(3)} µs per request`}${spec.serverDelayMs === null ? '' : `; the server waiting ${spec.serverDelayMs} ms before each answer`}${spec.serverNetns ? `; server in ${spec.serverDocker ? 'a Docker container where a daemon answers, else in ' : ''}a network namespace${spec.portProxy ? ', TCP through a port proxy' : ', TCP over the bridge'}` : ''}`;
}
