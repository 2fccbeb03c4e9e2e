/**
 * What a sweep is asked to do, resolved and checked before anything starts: a preset (or spec file, or spec object) with
 * keys over it, or --resume of a results directory. Changes nothing on disk; bad input is a UsageError naming the flag or key.
 */
import { UsageError } from '../core/errors.js';
import { originOf } from '../core/programs.js';
import { resolveWorkloadOptions } from '../options/rules.js';
import { checkTempDir } from '../fixture/socket-file.js';
import { describeNginx, findNginx } from '../fixture/nginx.js';
import { probeDocker } from '../fixture/docker.js';
import { checkClusterTempDir, describeCluster, describePostgres, findPostgres } from '../fixture/postgres-process.js';
import { describePgbench } from '../fixture/pgbench.js';
import { describeRedisServer, findRedisServer } from '../fixture/redis-process.js';
import { requireNetns } from '../fixture/netns.js';
import { DEFAULT_WORKLOAD, WORKLOAD_NAMES, getWorkload } from '../workloads/index.js';
import { defaultOutDir } from '../results/writer.js';
import { checkNewOutDir } from './session.js';
import { loadSpec, resolveSpec, toNodeList } from './spec.js';
import { isChained } from './chain.js';
import { currentNode, findNodes } from '../core/node-executables.js';
import { SPEC_FLAGS, checkOptionKeys, isOpenLoopWorkload, toFlag } from '../options/settings.js';

/** The other options of `sweep()`: what to run and where, beside the spec keys. */
export const SWEEP_OPTIONS = ['preset', 'test', 'out', 'resume', 'retryFailed', 'allowSharedDir', 'nginx', 'redisServer', 'postgresBin', 'probe', 'report', 'rates'];

/**
 * @typedef {SweepOwnOptions & Record<string, any>} SweepOptions the options of `sweep()`: `udsvstcp sweep`'s flags,
 *   camelCased: these, and the spec keys a flag overrides (SPEC_FLAGS, from the settings table) as typed ('1k..64k', '2s') or as in a spec file
 */

/**
 * @typedef {object} SweepOwnOptions
 * @property {string | Record<string, unknown>} [preset] a preset in sweeps/, a path to a .json spec, or a spec object
 *   (the keys of a spec file, sweeps/README.md); default: the default preset
 * @property {boolean} [test] the preset's "test" block (its smallest settings)
 * @property {string} [out] the results directory (default ./udsvstcp-results/<UTC time>-<preset>/)
 * @property {string} [resume] run only the trials missing from this results directory
 * @property {boolean} [retryFailed] with resume: measure failed trials again
 * @property {boolean} [allowSharedDir] take a results directory other users could change
 * @property {string} [nginx] the nginx binary (proxy)
 * @property {string} [redisServer] the redis-server executable (redis)
 * @property {string} [postgresBin] the directory of initdb and postgres (postgres)
 * @property {boolean} [probe] the wake-up probe at the start (default true)
 * @property {boolean} [report] write the report files: summary.md, the charts, results.xlsx, report.html (default true)
 * @property {string | (number | string)[]} [rates] the open-loop workloads' depths by their name (the offered rates); not with depths
 */

/**
 * The spec of `sweep --workload NAME` without a preset: that workload's defaults (one size, one depth), 5 runs.
 * @param {string} name
 */
function workloadSpec(name) {
  const w = getWorkload(name);
  return {
    name,
    source: `--workload ${name}`,
    raw: { description: `--workload ${name} with its defaults`, workload: name, sizes: [w.axes.size.fallback], depths: [w.axes.depth.fallback], test: { runs: 2, duration: '40ms', warmup: '10ms' } },
  };
}

/**
 * The servers' executables a workload runs, found from --nginx, --redis-server, --postgres-bin or PATH (and
 * /usr/lib/postgresql), never from a spec file or meta.json.
 * @param {import('../workloads/workload.js').Workload} workload
 * @param {{ nginx?: string, redisServer?: string, postgresBin?: string }} given
 * @returns {import('./session.js').Executables}
 */
export function findServers(workload, { nginx, redisServer, postgresBin }) {
  if (workload.fixture.server === 'postgres') checkClusterTempDir(); // as root the cluster's user must reach TMPDIR: before the results directory
  // from: the flag that gave it, else PATH or the directory searched after PATH that held it
  const record = (/** @type {{ path: string, version: string }} */ found, /** @type {string | undefined} */ given, /** @type {string} */ flag, isDir = false) => ({ ...found, from: given === undefined ? originOf(found.path, isDir) : flag });
  return {
    ...(workload.fixture.proxy ? { nginx: record(describeNginx(findNginx(nginx)), nginx, '--nginx') } : {}),
    ...(workload.fixture.server === 'redis' ? { 'redis-server': record(describeRedisServer(findRedisServer(redisServer)), redisServer, '--redis-server') } : {}),
    ...(workload.fixture.server === 'postgres' ? { postgres: record(describePostgres(findPostgres(postgresBin)), postgresBin, '--postgres-bin', true) } : {}),
  };
}

/**
 * What findServers found, a line each.
 * @param {import('./session.js').Executables} executables
 * @param {import('../workloads/workload.js').Workload} workload
 */
export function describeServers(executables, workload) {
  return ['nginx', 'redis-server', 'postgres'].filter((name) => executables[name]).map((name) => {
    const { path, version, from } = executables[name];
    return `${name}: ${path} (${version}; from ${from})${name === 'postgres' ? `; the cluster runs as ${describeCluster().user}${workload.columns.includes('pgbench_tps') ? `; ${describePgbench(path)}` : ''}` : ''}`;
  });
}

/**
 * The executables a sweep of `spec` runs: its servers' (findServers), its workload's reference client (redis-benchmark)
 * where it declares one and it is found (optional: none is a note later), ip with serverNetns, and the Docker daemon
 * that answered with serverDocker (recorded in meta.json; a change on --resume is said).
 * @param {import('./spec.js').SweepSpec} spec
 * @param {{ nginx?: string, redisServer?: string, postgresBin?: string }} given --nginx, --redis-server, --postgres-bin
 * @returns {import('./session.js').Executables}
 */
function findExecutables(spec, given) {
  const workload = getWorkload(spec.workload);
  // each only for its workload: --nginx for proxy, --redis-server for redis, --postgres-bin for postgres
  resolveWorkloadOptions(workload, given, toFlag);
  const servers = findServers(workload, given);
  const reference = workload.reference?.find();
  const ip = spec.serverNetns ? requireNetns(`sweep ${spec.preset}: serverNetns (--server-netns)`) : null;
  const docker = spec.serverDocker ? probeDocker() : null; // none when no daemon answers: the namespace emulation runs
  return {
    ...servers,
    ...(workload.reference && reference ? { [workload.reference.client]: { ...workload.reference.describe(reference), from: 'PATH' } } : {}),
    ...(ip ? { ip } : {}),
    ...(docker && 'path' in docker ? { docker } : {}),
  };
}

/**
 * Resolve what to do before anything starts; changes nothing on disk.
 * @param {SweepOptions} options
 * @returns {import('./session.js').SessionRequest}
 */
export function resolveSweep(options) {
  checkOptionKeys('sweep', options, [...SWEEP_OPTIONS, ...SPEC_FLAGS]);
  // --rates: the open-loop workloads' --depths by name (checked against the workload once the spec is resolved)
  if (options.rates !== undefined && options.depths !== undefined) throw new UsageError('--rates and --depths name one axis: give one');
  const opts = options.rates === undefined ? options : { ...options, depths: options.rates };
  const { preset } = opts;
  if (preset !== undefined && (typeof preset !== 'object' || preset === null || Array.isArray(preset)) && typeof preset !== 'string') throw new UsageError(`preset must be a preset's name, a path to a .json spec or a spec object; got ${JSON.stringify(preset)}`);
  if (opts.packets !== undefined && opts.duration !== undefined) throw new UsageError('--packets and --duration exclude each other: give one');
  if (opts.retryFailed && opts.resume === undefined) throw new UsageError('--retry-failed needs --resume DIR: it measures again the failed trials recorded there');
  checkTempDir(); // the server's socket and nginx's files go there
  /** @type {Record<string, unknown>} */
  const flags = Object.fromEntries(SPEC_FLAGS.map((k) => [k, /** @type {Record<string, unknown>} */ (opts)[k]]));
  const allowShared = Boolean(opts.allowSharedDir);
  const find = (/** @type {import('./spec.js').SweepSpec} */ spec) => findExecutables(spec, { nginx: opts.nginx, redisServer: opts.redisServer, postgresBin: opts.postgresBin });
  if (opts.resume !== undefined) {
    if (opts.out !== undefined) throw new UsageError('--resume DIR and --out DIR exclude each other: the results go back into DIR');
    if (typeof preset === 'object') throw new UsageError('--resume DIR takes the spec recorded in DIR: give a preset\'s name or none, not a spec object');
    const anyGiven = preset !== undefined || opts.test || SPEC_FLAGS.some((k) => flags[k] !== undefined);
    return { dir: opts.resume, flag: '--resume', resume: true, given: anyGiven ? { preset, test: Boolean(opts.test), flags } : null, retryFailed: Boolean(opts.retryFailed), allowShared, findExecutables: find, nodeList: toNodeList(opts.node, '--node') };
  }
  const loaded = typeof preset === 'object'
    ? { name: 'spec', source: 'the spec object', raw: /** @type {Record<string, unknown>} */ (preset) }
    : preset === undefined && opts.workload !== undefined && opts.workload !== DEFAULT_WORKLOAD ? workloadSpec(opts.workload) : loadSpec(preset ?? 'default');
  if (isChained(loaded)) throw new UsageError(`${loaded.name} is a chained preset (its parts are sweeps of their own): sweep() or udsvstcp sweep runs it, part by part`);
  const spec = resolveSpec(loaded, { test: Boolean(opts.test), flags, flagNames: options.rates === undefined ? {} : { depths: '--rates' } });
  if (options.rates !== undefined && !isOpenLoopWorkload(getWorkload(spec.workload))) {
    throw new UsageError(`--rates is for the open-loop workloads (${WORKLOAD_NAMES.filter((n) => isOpenLoopWorkload(getWorkload(n))).join(', ')}), whose depth axis is the offered rate; ${spec.workload} takes --depths`);
  }
  const nodes = spec.node === null ? [currentNode()] : findNodes(spec.node); // not Node, too old, twice: exit 2 before any file exists
  const dir = opts.out ?? defaultOutDir(spec.preset);
  const flag = opts.out !== undefined ? '--out' : 'results directory';
  checkNewOutDir(dir, flag, allowShared);
  return { dir, flag, resume: false, spec, allowShared, findExecutables: find, nodes };
}
