/**
 * One process's turn at a results directory. openSession() checks what it can without changing anything (no other user
 * could have changed the directory; which executables this session runs, never one named in meta.json), takes the lock,
 * and on resume checks the recorded version and spec and repairs trials.csv; begin() marks meta.json running and opens
 * the trial log; end() and fail() close the session in meta.json; release() closes the log and drops the lock.
 */
import fs from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { toCsvHeader } from '../results/csv.js';
import { makeDirectories, openForAppend, readIfThere, writeAll, writeFileAtomic } from '../core/files.js';
import { checkPrivateDir } from '../core/ownership.js';
import { LOCK_FILE, acquireLock } from '../results/lock.js';
import { beginSession, checkVersion, createMeta, describeStatus, endSession, readMeta, changedExecutables, writeMeta, writeMetaBestEffort } from '../results/meta.js';
import { inspectTrialLog, markSuperseded, toRow } from '../results/recovery.js';
import { FILES, MAX_READ_BYTES, blockColumns, createLog, openLog, trialColumns } from '../results/writer.js';
import { checkResumeFlags, checkStoredSpec } from './stored-spec.js';
import { nodesForResume, toNodeRecords } from './node-axis.js';
import { CHAIN_FILE } from './chain.js';

const NO_THROW = { throwIfNoEntry: false };
/** Undefined where nothing is at the path. @param {string} path @param {boolean} [follow] */
const statOrNull = (path, follow = false) => (follow ? fs.statSync(path, NO_THROW) : fs.lstatSync(path, NO_THROW));

/**
 * A results file of a directory being resumed: a regular file of ours, at most MAX_READ_BYTES; null if there is none.
 * @param {string} dir
 * @param {'trials' | 'blocks'} file
 * @param {boolean} allowShared
 */
function readResultsFile(dir, file, allowShared) {
  return readIfThere(join(dir, FILES[file]), { maxBytes: MAX_READ_BYTES[file], what: 'a results file', private: !allowShared }, `--resume ${dir}: cannot read ${FILES[file]}`);
}

/**
 * A new sweep's directory must hold nothing at the names of results files (a symlink included) and, unless
 * allowShared, be one no other user could change. Changes nothing.
 * @param {string} dir
 * @param {string} flag
 */
export function checkNewOutDir(dir, flag, allowShared = false) {
  let stat;
  try {
    stat = statOrNull(dir, true);
    if (stat && !stat.isDirectory()) throw new Error('not a directory');
  } catch (error) {
    throw new UsageError(`${flag} ${dir} is not a writable directory: ${/** @type {Error} */ (error).message}`);
  }
  if (!stat) return;
  if (!allowShared) checkPrivateDir(dir, flag);
  if (statOrNull(join(dir, CHAIN_FILE))) {
    throw new UsageError(`${flag} ${dir} already holds a chain's results (${CHAIN_FILE}); use --resume ${dir} to complete them, or another --out`, 'ERR_EXISTS');
  }
  for (const name of Object.values(FILES)) {
    const found = statOrNull(join(dir, name));
    if (!found) continue;
    if (found.isSymbolicLink()) throw new UsageError(`${flag} ${dir}: its ${name} is a symbolic link; udsvstcp never writes through one (remove it, or choose another --out)`, 'ERR_SYMLINK');
    let status = '';
    try {
      status = ` (its sweep is ${describeStatus(readMeta(dir, flag, { allowShared: true }))})`; // for a message only
    } catch {
      // no readable meta.json: say nothing about a status
    }
    throw new UsageError(`${flag} ${dir} already holds results; use --resume ${dir} to complete them, or another --out${status}`, 'ERR_EXISTS');
  }
}

/**
 * @typedef {object} SessionRequest
 * @property {string} dir
 * @property {string} flag the flag that named the directory
 * @property {boolean} resume
 * @property {import('./spec.js').SweepSpec} [spec] a new sweep's spec
 * @property {{ preset?: string, test: boolean, flags: Record<string, unknown> } | null} [given] what was given with --resume
 * @property {boolean} [retryFailed]
 * @property {boolean} [allowShared] --allow-shared-dir: take a directory (and files) other users could change
 * @property {(spec: import('./spec.js').SweepSpec) => Executables} findExecutables what this session will run, found
 *   from the command line and PATH (never from meta.json); throws a UsageError when one is missing
 * @property {import('../core/node-executables.js').NodeExecutable[]} [nodes] a new sweep's Nodes, found and asked
 * @property {string[] | null} [nodeList] --node given with --resume (null: the running Node)
 */

/** @typedef {Record<string, { path: string, version: string, from: string }>} Executables by name, e.g. nginx */

/**
 * The results directory of a new sweep, made with its parents where missing; one that cannot be made or written to is
 * a UsageError naming the flag.
 * @param {string} dir
 * @param {string} flag
 */
export function makeOutDir(dir, flag) {
  try {
    makeDirectories(dir);
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (error) {
    throw new UsageError(`${flag} ${dir} is not a writable directory: ${/** @type {Error} */ (error).message}`);
  }
}

/**
 * @param {SessionRequest} request
 * @param {(note: string) => void} note says what was found and done
 */
export function openSession(request, note) {
  const { dir, flag, allowShared = false } = request;
  /** @type {Executables | undefined} */
  let executables;
  /** @type {ReturnType<typeof checkResumable> | undefined} what a resume found before the lock: its executables and Nodes */
  let checked;
  if (request.resume) {
    const stat = statOrNull(dir, true);
    if (!stat) throw new UsageError(`--resume ${dir} does not exist: it takes the results directory of a sweep to complete`);
    if (!stat.isDirectory()) throw new UsageError(`--resume ${dir} is not a directory: it takes the results directory of a sweep to complete`);
    if (!statOrNull(join(dir, FILES.meta))) {
      throw new UsageError(`--resume ${dir} holds no sweep results (${FILES.meta} and ${FILES.trials} are needed)`);
    }
    // refused before the lock: taking over a killed sweep's stale sweep.lock and then refusing would delete it
    checked = checkResumable(request);
  } else {
    executables = request.findExecutables(/** @type {import('./spec.js').SweepSpec} */ (request.spec));
    makeOutDir(dir, flag);
  }
  if (!allowShared) checkPrivateDir(dir, flag); // what was resumed, made, or what another made meanwhile
  const lock = acquireLock(dir, { flag });
  try {
    if (lock.tookOver) note(`took over ${LOCK_FILE} left by udsvstcp pid ${lock.tookOver.pid} (since ${lock.tookOver.started_at}), which is no longer running`);
    if (!request.resume) checkNewOutDir(dir, flag, allowShared); // again, now that no one else can start here
    const state = request.resume
      ? openResume(request, note, checked)
      : { meta: null, spec: /** @type {import('./spec.js').SweepSpec} */ (request.spec), previous: [], recoveries: [], executables: executables ?? {}, executablesChanged: [], nodes: request.nodes ?? [] };
    return createSession(request, state, lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}

/**
 * What a resume checks of its directory before it changes anything: meta.json readable and of this version, its spec,
 * the flags given against it, the executables this session runs and the Nodes for the versions recorded. Takes no lock
 * and changes nothing: a chain checks each part with it before its chain.json is written (lib/api/chain.js).
 * @param {Pick<SessionRequest, 'dir' | 'given' | 'allowShared' | 'findExecutables' | 'nodeList'>} request
 * @param {{ executables: Executables, nodes: import('../core/node-executables.js').NodeExecutable[] }} [found] the
 *   executables and Nodes an earlier check found (meta.json, spec and flags are read and checked again)
 */
export function checkResumable({ dir, given, allowShared = false, findExecutables, nodeList = null }, found) {
  const meta = readMeta(dir, '--resume', { allowShared });
  checkVersion(meta, dir);
  const spec = checkStoredSpec(meta.spec, `${join(dir, FILES.meta)} "spec"`);
  if (given) checkResumeFlags(spec, given, dir);
  const executables = found?.executables ?? findExecutables(spec); // never those meta.json records: a change from them is said and recorded
  const nodes = found?.nodes ?? nodesForResume(meta, nodeList, dir, join(dir, FILES.meta)); // never from meta.json: only their versions, which must match
  return { meta, spec, executables, nodes };
}

/**
 * @param {SessionRequest} request
 * @param {(note: string) => void} say says what was found, once every check has passed: a refusal is one line
 * @param {Parameters<typeof checkResumable>[1]} [before] the executables and Nodes found before the lock
 */
function openResume(request, say, before) {
  const { dir, retryFailed, allowShared = false } = request;
  /** @type {string[]} */
  const found = [];
  const note = (/** @type {string} */ text) => found.push(text);
  const { meta, spec, executables, nodes } = checkResumable(request, before);
  const executablesChanged = changedExecutables(meta, executables);
  for (const change of executablesChanged) note(`${change}; a results directory never names what runs`);
  const last = Array.isArray(meta.sessions) ? meta.sessions[meta.sessions.length - 1] : undefined;
  if (meta.status === 'failed') note(`the last session failed (${meta.error ?? 'no reason recorded'}); continuing where it stopped`);
  if (meta.status === 'running') note(`the last session${last?.pid ? ` (pid ${last.pid})` : ''} ended without closing the directory (killed, or the machine stopped); continuing where it stopped`);

  const path = join(dir, FILES.trials);
  const bytes = readResultsFile(dir, 'trials', allowShared);
  const TRIAL_COLUMNS = trialColumns(spec.workload);
  const inspection = bytes ? inspectTrialLog(bytes, { columns: TRIAL_COLUMNS, file: path }) : null;
  // a trial's rows go in one write; a write cut short leaves its first rows without the rest: cut them back too
  const perTrial = spec.pairing === 'blocks' ? spec.transports.length : 1;
  const trialKey = (/** @type {Record<string, any>} */ r) => `${r.run}|${r.node_version}|${r.size_bytes}|${r.depth}`;
  const rows = (inspection?.rows ?? []).map((r) => toRow(r.cells, TRIAL_COLUMNS));
  let unfinished = 0; // the last trial's rows
  while (unfinished < rows.length && trialKey(rows[rows.length - 1 - unfinished]) === trialKey(rows[rows.length - 1])) unfinished++;
  /** @type {string[]} */
  const orphans = [];
  if (inspection && unfinished > 0 && unfinished < perTrial) {
    const tail = inspection.rows.splice(rows.length - unfinished);
    rows.splice(rows.length - unfinished);
    inspection.keepBytes = tail[0].start;
    inspection.addNewline = false;
    orphans.push(...tail.map((r) => bytes?.subarray(r.start, r.end).toString('utf8') ?? ''));
  }
  /** @type {Record<string, unknown>[]} */
  const recoveries = [];
  const at = new Date().toISOString();
  if (inspection?.cut) {
    const { line, text, why } = inspection.cut;
    const partner = orphans.length ? ` with the ${orphans.length} row(s) of the same trial before it` : '';
    note(`${path} line ${line} was cut back${partner}: ${why} (a row cut short when a sweep stopped mid-write); the ${rows.length} complete rows before it are kept, and that trial is measured again. Removed: ${JSON.stringify(text.slice(0, 200))}`);
    recoveries.push({ at, file: FILES.trials, line: line - orphans.length, why, removed: orphans.join('') + text });
  } else if (orphans.length) {
    const line = (inspection?.rows.length ?? 0) + 2;
    note(`${path} line ${line}: the last trial's rows were not all written (a sweep stopped mid-write); its ${orphans.length} row(s) were cut back, and that trial is measured again. Removed: ${JSON.stringify(orphans.join('').slice(0, 200))}`);
    recoveries.push({ at, file: FILES.trials, line, why: 'an unfinished trial', removed: orphans.join('') });
  }
  if (inspection?.addNewline) {
    note(`${path} had no final newline; added one before appending`);
    recoveries.push({ at, file: FILES.trials, line: inspection.rows[inspection.rows.length - 1]?.line ?? 1, why: 'no final newline', added: '\n' });
  }
  if (!inspection) note(`${path} was missing; created it (no trial was recorded)`);

  // a trial is a (run, size, depth) in one process, or one transport of it (pairing "trials"): all its rows go together
  const failedKeys = new Set(rows.filter((r) => r.status === 'error').map(trialKey));
  const retry = retryFailed ? rows.map((r, i) => ({ r, i })).filter(({ r }) => r.status !== 'superseded' && failedKeys.has(trialKey(r))) : [];
  if (!retryFailed && failedKeys.size) note(`${failedKeys.size} trial(s) recorded as failed are kept as they are; --retry-failed measures them again`);

  const repairBlocks = planBlockRepair(dir, spec.workload, { note, recoveries, at, allowShared });

  // every check passed: now say what was found, and change the files
  for (const text of found) say(text);
  if (!bytes || !inspection) {
    createLog(dir, 'trials', spec.workload);
  } else if (retry.length) {
    const fixed = Buffer.concat([bytes.subarray(0, inspection.keepBytes), Buffer.from(inspection.needsHeader ? toCsvHeader(TRIAL_COLUMNS) : inspection.addNewline ? '\n' : '')]);
    writeFileAtomic(path, markSuperseded(fixed, retry.map(({ i }) => inspection.rows[i]), TRIAL_COLUMNS));
    for (const { r } of retry) r.status = 'superseded';
    say(`--retry-failed: ${retry.length} failed trial row(s) marked superseded (kept in ${FILES.trials}); their trials are measured again`);
  } else {
    applyRepair(path, bytes, inspection, TRIAL_COLUMNS);
  }
  repairBlocks();
  return { meta, spec, previous: rows, recoveries, executables, executablesChanged, nodes };
}

/**
 * blocks.csv on resume: a row cut short by a stop mid-write is cut back, a missing final newline added, a missing file
 * created; worse damage exits 2 naming the line, as for trials.csv. Checked now (before trials.csv changes); the
 * repair is the function returned.
 * @param {string} dir
 * @param {string} workload
 * @param {{ note: (note: string) => void, recoveries: Record<string, unknown>[], at: string, allowShared: boolean }} context
 * @returns {() => void}
 */
function planBlockRepair(dir, workload, { note, recoveries, at, allowShared }) {
  const BLOCK_COLUMNS = blockColumns(workload);
  const path = join(dir, FILES.blocks);
  const bytes = readResultsFile(dir, 'blocks', allowShared);
  if (!bytes) return () => createLog(dir, 'blocks', workload);
  const inspection = inspectTrialLog(bytes, { columns: BLOCK_COLUMNS, file: path });
  if (inspection.cut) {
    note(`${path} line ${inspection.cut.line} was cut back: ${inspection.cut.why}`);
    recoveries.push({ at, file: FILES.blocks, line: inspection.cut.line, why: inspection.cut.why, removed: inspection.cut.text });
  }
  return () => applyRepair(path, bytes, inspection, BLOCK_COLUMNS);
}

/**
 * Make an append-only CSV file what its inspection says: cut back, with its header, ending in a newline.
 * @param {string} path
 * @param {Buffer} bytes what the file held
 * @param {import('../results/recovery.js').Inspection} inspection
 * @param {readonly string[]} columns
 */
function applyRepair(path, bytes, inspection, columns) {
  if (inspection.keepBytes >= bytes.length && !inspection.needsHeader && !inspection.addNewline) return;
  const fd = openForAppend(path);
  try {
    if (inspection.keepBytes < bytes.length) fs.ftruncateSync(fd, inspection.keepBytes);
    if (inspection.needsHeader) writeAll(fd, toCsvHeader(columns), path);
    else if (inspection.addNewline) writeAll(fd, '\n', path);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * @param {SessionRequest} request
 * @param {{ meta: Record<string, any> | null, spec: import('./spec.js').SweepSpec, previous: Record<string, any>[], recoveries: Record<string, unknown>[], executables: Executables, executablesChanged: string[], nodes: import('../core/node-executables.js').NodeExecutable[] }} state
 * @param {ReturnType<typeof acquireLock>} lock
 */
function createSession({ dir, resume, retryFailed = false }, state, lock) {
  let meta = state.meta;
  let begun = false;
  /** @type {ReturnType<typeof openLog> | undefined} */
  let log;
  /** @type {ReturnType<typeof openLog> | undefined} */
  let blockLog;
  return {
    dir,
    spec: state.spec,
    /** rows already in trials.csv (superseded ones included) */
    previous: state.previous,
    /** what this session runs, by name (recorded in meta.json by begin()) */
    executables: state.executables,
    /** the Nodes this session runs servers and trials with, the baseline first */
    nodes: state.nodes,
    /**
     * Mark the directory as being worked on; open the trial and block logs.
     * @param {{ environment: Record<string, any> & { udsvstcp: string }, pinning: string, design?: Record<string, unknown>, machine?: Record<string, unknown> }} context
     *   machine: the machine facts and wake-up probe of this session (lib/core/machine.js, lib/machine/wakeup-probe.js)
     */
    begin({ environment, pinning, design, machine }) {
      meta ??= { ...createMeta(state.spec, environment, machine), nodes: toNodeRecords(state.nodes), design };
      beginSession(meta, { kind: resume ? 'resume' : 'start', environment, pinning, retryFailed, machine, executables: state.executables, executablesChanged: state.executablesChanged });
      meta.sessions[meta.sessions.length - 1].nodes = toNodeRecords(state.nodes); // where this session found them
      begun = true;
      meta.recoveries.push(...state.recoveries);
      writeMeta(dir, meta);
      const { workload } = state.spec;
      if (!resume) {
        createLog(dir, 'trials', workload);
        createLog(dir, 'blocks', workload);
      }
      log = openLog(dir, 'trials', workload);
      blockLog = openLog(dir, 'blocks', workload);
      return { log, blockLog };
    },
    /**
     * A fixture replaced because it was unusable: into meta.json's fixture_replacements at once.
     * @param {Record<string, unknown>} replacement
     */
    recordReplacement(replacement) {
      if (!meta || !begun) return;
      meta.fixture_replacements.push({ session: meta.sessions.length - 1, ...replacement });
      writeMetaBestEffort(dir, meta);
    },
    /**
     * @param {'complete' | 'interrupted'} status
     * @param {Record<string, unknown>} fields
     */
    end(status, fields) {
      if (!meta || !begun) return;
      endSession(meta, status, fields);
      writeMeta(dir, meta);
    },
    /** Whether begin() has written meta.json: before, nothing of this session is in the directory. */
    begun: () => begun,
    /**
     * Mark meta.json failed with the reason (in place if the disk is full).
     * @param {Error} error
     * @returns {Error | null} why meta.json could not be marked
     */
    fail(error) {
      if (!meta || !begun) return null;
      endSession(meta, 'failed', { error: error.message.split('\n')[0] });
      return writeMetaBestEffort(dir, meta);
    },
    release() {
      try {
        log?.close();
        blockLog?.close();
      } finally {
        lock.release();
      }
    },
  };
}
