/** meta.json: what a results directory holds and how it got there, session after session (docs/results.md#metajson). */
import os from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { version } from '../core/environment.js';
import { cpuShares, readCpuTimes } from '../core/cpu-times.js';
import { overwriteInPlace, readRegularFile, writeFileAtomic } from '../core/files.js';
import { parseJson } from '../core/json-text.js';
import { isOtherNode } from '../core/shell.js';
import { MiB } from '../core/units.js';

const META_FILE = 'meta.json';
/** Largest meta.json read: a sweep's is a few KiB, plus a few per session and recovery. */
const MAX_META_BYTES = 16 * MiB;
/** Deepest nesting of objects and lists read in a meta.json: udsvstcp writes 4. */
const MAX_META_DEPTH = 64;

/**
 * meta.json's text as an object: at most MAX_META_BYTES, nested at most MAX_META_DEPTH deep.
 * @param {string} path
 * @param {{ private?: boolean }} [options] private: refuse a file another user could change
 * @returns {unknown} throws the reader's UsageErrors, a RangeError (too deep), a SyntaxError or a system error
 */
export function readMetaFile(path, { private: mine = false } = {}) {
  return parseJson(readRegularFile(path, { maxBytes: MAX_META_BYTES, what: 'a meta.json', private: mine }).toString('utf8'), MAX_META_DEPTH);
}

/**
 * @param {string} dir
 * @param {string} flag
 * @param {{ allowShared?: boolean }} [options] allowShared: read it even if another user could have changed it
 * @returns {Record<string, any>}
 */
export function readMeta(dir, flag, { allowShared = false } = {}) {
  const path = join(dir, META_FILE);
  let meta;
  try {
    meta = readMetaFile(path, { private: !allowShared });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${flag} ${dir}: cannot read ${META_FILE}: ${/** @type {Error} */ (error).message}`, 'ERR_META');
  }
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) throw new UsageError(`${path} must hold a JSON object`, 'ERR_META');
  return meta;
}

/**
 * Trials of two udsvstcp versions are never mixed in one directory.
 * @param {Record<string, any>} meta
 * @param {string} dir
 */
export function checkVersion(meta, dir) {
  const mine = version();
  if (meta.udsvstcp !== mine) {
    const theirs = typeof meta.udsvstcp === 'string' ? meta.udsvstcp : JSON.stringify(meta.udsvstcp);
    throw new UsageError(`--resume ${dir} was measured with udsvstcp ${theirs} and this is ${mine}; trials of two versions are not mixed: finish it with npx udsvstcp@${theirs} sweep --resume, or start a new sweep`, 'ERR_VERSION');
  }
}

/**
 * The versions of each server and C client (nginx, redis-server, redis-benchmark, postgres, docker) a sweep's sessions
 * ran, by name, in the order first seen: more than one where a resume ran another.
 * @param {Record<string, any> | null | undefined} meta
 * @returns {Map<string, string[]>}
 */
export function executableVersions(meta) {
  /** @type {Map<string, string[]>} */
  const by = new Map();
  for (const session of Array.isArray(meta?.sessions) ? meta.sessions : []) {
    for (const [name, e] of Object.entries(session?.executables ?? {})) {
      const seen = by.get(name) ?? [];
      if (typeof e?.version === 'string' && !seen.includes(e.version)) by.set(name, [...seen, e.version]);
    }
  }
  return by;
}

/**
 * How a session's executables differ from the latest ones meta.json records (an nginx path in the spec, as earlier
 * sweeps wrote it, is a record of unknown version): a line each, for people and the session's `executables_changed`.
 * @param {Record<string, any>} meta
 * @param {Record<string, { path: string, version: string, from: string }>} executables what runs now, by name
 */
export function changedExecutables(meta, executables) {
  /** @type {Record<string, { path: string, version: string | null }>} */
  const recorded = {};
  if (typeof meta.spec?.nginx === 'string') recorded.nginx = { path: meta.spec.nginx, version: null };
  for (const session of Array.isArray(meta.sessions) ? meta.sessions : []) {
    const records = session?.executables;
    if (typeof records !== 'object' || records === null) continue;
    for (const [name, record] of Object.entries(records)) {
      if (typeof record?.path === 'string') recorded[name] = { path: record.path, version: typeof record.version === 'string' ? record.version : null };
    }
  }
  const changes = [];
  for (const [name, now] of Object.entries(executables)) {
    const before = recorded[name];
    if (!before || (before.path === now.path && (before.version === null || before.version === now.version))) continue;
    changes.push(`${name}: ${META_FILE} records ${before.path}${before.version ? ` (${before.version})` : ''}; this session runs ${now.path} (${now.version}) from ${now.from}`);
  }
  return changes;
}

/**
 * A new sweep's meta (not yet written).
 * @param {import('../sweep/spec.js').SweepSpec} spec
 * @param {{ udsvstcp: string }} environment
 * @param {Record<string, unknown>} [machine]
 */
export function createMeta(spec, environment, machine) {
  return {
    udsvstcp: environment.udsvstcp,
    spec,
    seed: spec.seed,
    status: 'running',
    error: null,
    started_at: new Date().toISOString(),
    resumed_at: [],
    ended_at: null,
    environment,
    machine: machine ?? null,
    pinning: null,
    no_delay: spec.noDelay,
    loadavg_start: os.loadavg(),
    loadavg_end: null,
    sessions: /** @type {Record<string, any>[]} */ ([]),
    recoveries: /** @type {Record<string, any>[]} */ ([]),
    fixture_replacements: /** @type {Record<string, any>[]} */ ([]),
  };
}

/**
 * Append this process's session; the first run's environment is kept.
 * @param {Record<string, any>} meta
 * @param {{ kind: 'start' | 'resume', environment: Record<string, any>, pinning: string, retryFailed?: boolean, machine?: Record<string, unknown>, executables?: Record<string, unknown>, executablesChanged?: string[] }} session
 *   executables: what this session runs, by name ({ nginx: { path, version, from } }); executablesChanged: how they differ from those recorded
 */
export function beginSession(meta, { kind, environment, pinning, retryFailed = false, machine, executables = {}, executablesChanged = [] }) {
  if (!Array.isArray(meta.sessions)) {
    // written before sessions were recorded: its first run is what the top level says
    meta.sessions = [{ kind: 'start', started_at: meta.started_at ?? null, ended_at: meta.ended_at ?? null, status: meta.status ?? null, environment: meta.environment ?? null }];
  }
  const last = meta.sessions[meta.sessions.length - 1];
  if (last?.status === 'running') last.status = 'lost'; // it never closed the directory
  const now = new Date().toISOString();
  meta.sessions.push({ kind, pid: process.pid, argv: process.argv.slice(2), started_at: now, ended_at: null, status: 'running', error: null, retry_failed: retryFailed, pinning, environment, machine: machine ?? null, executables, ...(executablesChanged.length ? { executables_changed: executablesChanged } : {}), loadavg_start: os.loadavg(), loadavg_end: null, cpu_times_start: readCpuTimes(), cpu_times_end: null, cpu: null });
  if (kind === 'resume') meta.resumed_at = [...(Array.isArray(meta.resumed_at) ? meta.resumed_at : []), now];
  if (meta.pinning === null || meta.pinning === undefined) meta.pinning = pinning;
  meta.recoveries = Array.isArray(meta.recoveries) ? meta.recoveries : [];
  meta.fixture_replacements = Array.isArray(meta.fixture_replacements) ? meta.fixture_replacements : [];
  Object.assign(meta, { status: 'running', error: null, ended_at: null, loadavg_end: null });
}

/**
 * @param {Record<string, any>} meta
 * @param {'complete' | 'interrupted' | 'failed'} status
 * @param {Record<string, unknown>} [fields] e.g. error, trial counts
 */
export function endSession(meta, status, fields = {}) {
  const now = new Date().toISOString();
  const loadavg = os.loadavg();
  const session = meta.sessions[meta.sessions.length - 1];
  const cpuTimes = readCpuTimes();
  Object.assign(session, { status, ended_at: now, loadavg_end: loadavg, cpu_times_end: cpuTimes, cpu: cpuShares(session.cpu_times_start, cpuTimes), error: fields.error ?? null });
  Object.assign(meta, { error: null, ...fields, status, ended_at: now, loadavg_end: loadavg });
}

/**
 * @param {string} dir
 * @param {Record<string, any>} meta
 */
export function writeMeta(dir, meta) {
  writeFileAtomic(join(dir, META_FILE), `${JSON.stringify(meta, null, 2)}\n`);
}

/**
 * Write meta.json even on a full disk (in place, as a last resort).
 * @param {string} dir
 * @param {Record<string, any>} meta
 * @returns {Error | null} why it could not be written at all
 */
export function writeMetaBestEffort(dir, meta) {
  const path = join(dir, META_FILE);
  // atomically; else in place; else in place without indentation, about a third shorter
  const attempts = [() => writeMeta(dir, meta), () => overwriteInPlace(path, `${JSON.stringify(meta, null, 2)}\n`), () => overwriteInPlace(path, `${JSON.stringify(meta)}\n`)];
  let failure = null;
  for (const attempt of attempts) {
    try {
      attempt();
      return null;
    } catch (error) {
      failure = /** @type {Error} */ (error);
    }
  }
  return failure;
}

/**
 * What a directory's meta says, for people: "complete", "failed: disk full" …
 * @param {Record<string, any>} meta
 */
export function describeStatus(meta) {
  if (meta.status === 'failed') return `failed: ${meta.error ?? 'no reason recorded'}`;
  if (meta.status === 'running') return 'running, or stopped without closing the directory: --resume tells which';
  return typeof meta.status === 'string' ? meta.status : 'of unknown status';
}

/**
 * The Node executables a printed resume command names with --node (a resume itself never takes one from meta.json):
 * where the sweep was given --node or measured several versions, those the last session recording them ran, baseline
 * first; else null (the Node running udsvstcp resumes it).
 * @param {Record<string, any> | null | undefined} meta
 * @returns {{ given?: unknown, path?: unknown, version?: unknown }[] | null}
 */
export function resumeNodesOf(meta) {
  const records = (/** @type {unknown} */ v) => (Array.isArray(v) && v.length > 0 && v.every((n) => n && typeof n === 'object') ? /** @type {Record<string, unknown>[]} */ (v) : null);
  const recorded = records(meta?.nodes);
  const given = Array.isArray(meta?.spec?.node) && meta.spec.node.length > 0;
  if (!given && (recorded?.length ?? 0) < 2) return recorded && isOtherNode(recorded[0].path) ? recorded : null; // run by a Node not on PATH
  const sessions = Array.isArray(meta?.sessions) ? meta.sessions : [];
  const last = [...sessions].reverse().map((s) => records(s?.nodes)).find((n) => n !== null) ?? recorded;
  if (!last) return given ? meta?.spec.node.map((/** @type {unknown} */ g) => ({ given: g })) : null;
  // in the recorded order: the first is the baseline
  const order = (recorded ?? last).map((n) => n.version);
  return [...last].sort((a, b) => order.indexOf(a.version) - order.indexOf(b.version));
}
