/**
 * fixture.json (docs/results.md#the-files), for lib/fixture/leftovers.js. Read as data: entries of the wrong shape are
 * dropped, and a file that cannot be read is ignored with a reason.
 */
import { join } from 'node:path';
import { errorCode, readRegularFile, writeFileAtomic } from '../core/files.js';
import { createSessionRecord, endLeftovers } from '../fixture/leftovers.js';
import { FILES } from './writer.js';

/** A record holds a few processes; more than this is not ours. */
const MAX_BYTES = 256 * 1024;
const ABOUT = 'processes and directories this sweep started and has not yet stopped; sweep --resume ends whichever are still there';

/** @typedef {import('../fixture/leftovers.js').FixtureRecord} FixtureRecord */

/**
 * @param {string} dir
 * @param {FixtureRecord | null} record null: nothing runs
 */
export function writeFixtureRecord(dir, record) {
  const body = record ?? { boot_id: null, processes: [], dirs: [], sockets: [], networks: [] };
  writeFileAtomic(join(dir, FILES.fixture), `${JSON.stringify({ about: ABOUT, ...body }, null, 2)}\n`);
}

const isCount = (/** @type {unknown} */ n) => Number.isSafeInteger(n) && /** @type {number} */ (n) >= 0;
/** A process named by pid and start time (a parent, an owner). @param {any} p */
const isProcessId = (p) => p !== null && typeof p === 'object' && isCount(p.pid) && isCount(p.start);

/** @param {any} p */
function isProcessRecord(p) {
  return isProcessId(p) && p.pid > 0 && typeof p.role === 'string' && isCount(p.pgid) && isCount(p.uid)
    && typeof p.exe === 'string' && Array.isArray(p.cmdline) && p.cmdline.every((/** @type {unknown} */ a) => typeof a === 'string')
    && (p.parent === null || isProcessId(p.parent));
}

/** @param {any} n */
function isNetworkRecord(n) {
  return n !== null && typeof n === 'object' && typeof n.namespace === 'string' && Array.isArray(n.links) && n.links.every((/** @type {unknown} */ l) => typeof l === 'string')
    && isProcessId(n.owner);
}

/** @param {any} c a container record (--server-docker) */
function isContainerRecord(c) {
  return c !== null && typeof c === 'object' && typeof c.container === 'string' && typeof c.image === 'string' && typeof c.dir === 'string'
    && isProcessId(c.owner);
}

/**
 * The record in `dir`, if there is one.
 * @param {string} dir
 * @returns {{ record: FixtureRecord | null, problem?: string }} record null: none, or unreadable (problem says why)
 */
export function readFixtureRecord(dir) {
  const path = join(dir, FILES.fixture);
  let data;
  try {
    // only a small regular file: a FIFO or a symlink planted here is refused without blocking
    data = JSON.parse(readRegularFile(path, { maxBytes: MAX_BYTES, what: 'a fixture record' }).toString('utf8'));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { record: null };
    const { message } = /** @type {Error} */ (error);
    return { record: null, problem: error instanceof SyntaxError ? `${path} is not JSON: ${message}` : message };
  }
  if (data === null || typeof data !== 'object') return { record: null, problem: `${path} holds no record` };
  const list = (/** @type {unknown} */ value) => (Array.isArray(value) ? value : []);
  return {
    record: {
      boot_id: typeof data.boot_id === 'string' ? data.boot_id : null,
      processes: list(data.processes).filter(isProcessRecord),
      dirs: list(data.dirs).filter((d) => typeof d === 'string'),
      sockets: list(data.sockets).filter((s) => s !== null && typeof s === 'object'),
      networks: list(data.networks).filter(isNetworkRecord),
      ...(Array.isArray(data.containers) ? { containers: list(data.containers).filter(isContainerRecord) } : {}),
    },
  };
}

/**
 * A session's record of what it runs (lib/fixture/leftovers.js), written to fixture.json in `dir` at each change. A
 * safety net: a failed write is said once, and the session goes on.
 * @param {string} dir
 * @param {(text: string) => void} note
 */
export function recordSession(dir, note) {
  let failed = false;
  return createSessionRecord((record) => {
    try {
      writeFixtureRecord(dir, record);
    } catch (error) {
      if (!failed) note(`cannot write ${FILES.fixture}: ${/** @type {Error} */ (error).message}`);
      failed = true;
    }
  });
}

/**
 * End what killed sessions left (endLeftovers): on --resume what fixture.json in `dir` names, and given `ip`
 * (--server-netns) the networks of any killed udsvstcp, and given `docker` (--server-docker) its containers and images; a line for each.
 * @param {string} dir
 * @param {{ resume: boolean, ip: string | null, docker: string | null }} what
 * @param {(text: string) => void} note
 */
export async function endSessionLeftovers(dir, { resume, ip, docker }, note) {
  const { record, problem } = resume ? readFixtureRecord(dir) : { record: null };
  if (problem) note(`${problem}; ignored it`);
  const { killed, removed, left, strays } = await endLeftovers({ record, ip, docker });
  const done = [killed.length ? `killed ${killed.join(', ')}` : '', removed.length ? `removed ${removed.join(', ')}` : ''].filter(Boolean);
  if (done.length) note(`ended what an earlier session of this sweep left behind (${FILES.fixture}): ${done.join('; ')}`);
  if (left.length) note(`${FILES.fixture} names ${left.join(', ')}, still run by a live process; left alone`);
  if (strays.length) note(`removed what a killed udsvstcp left: ${strays.join(', ')}`);
}
