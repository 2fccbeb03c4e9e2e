/**
 * The process's resource limits (ulimit -v, ulimit -n) and what running out of them looks like, said in one line naming
 * the limit, never as a stack. Loaded by bin/udsvstcp.js before the rest of the program, so it imports only node:fs.
 */
import { readFileSync } from 'node:fs';

/**
 * The smallest address-space limit (ulimit -v, KiB) accepted; a smaller one is refused before the rest loads. V8
 * reserves its code range, heap and tables up front and, short of them, aborts with a native stack no JavaScript can
 * catch. Measured on x64 Linux (`run --size 64 --depth 1 --packets 1000`, `run`, `sweep --test`, `report`, three tries
 * each): Node 24 and 26 aborted at every limit up to 1 500 000 KiB and worked from 1 600 000; Node 20 worked from
 * 1 000 000 but aborted at 900 000 while 800 000 worked. 2 000 000 KiB leaves a margin; a job bigger than the limit
 * allows still fails, in one line. Below about 800 000 KiB Node itself does not start.
 */
export const MIN_ADDRESS_SPACE_KIB = 2_000_000;

/**
 * @typedef {object} Limits soft limits; null when unlimited or unknown
 * @property {number | null} addressSpaceKiB ulimit -v, in KiB as ulimit gives it
 * @property {number | null} openFiles ulimit -n
 */

/**
 * A limit of /proc/self/limits' text, soft (column 1) or hard (2); null when unlimited or unknown.
 * @param {string | null} text
 * @param {string} name
 * @param {1 | 2} column
 */
function limitOf(text, name, column) {
  const match = text?.match(new RegExp(`^${name}\\s+(\\S+)\\s+(\\S+)`, 'm'));
  return match && /^\d+$/.test(match[column]) ? Number(match[column]) : null;
}

/**
 * The soft limits, from /proc/self/limits (Linux; both null elsewhere).
 * @param {string | null} [text] the file's text (default: read it)
 * @returns {Limits}
 */
export function readLimits(text = readProcLimits()) {
  const bytes = limitOf(text, 'Max address space', 1);
  return { addressSpaceKiB: bytes === null ? null : Math.floor(bytes / 1024), openFiles: limitOf(text, 'Max open files', 1) };
}

/**
 * How many files a process we start may open (Linux; null where unknown or unlimited): the hard RLIMIT_NOFILE it
 * inherits (Node raises its soft limit to the hard one at start-up). Only root could raise it.
 */
export const readOpenFileLimit = () => limitOf(readProcLimits(), 'Max open files', 2);

function readProcLimits() {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return null;
  }
}

/**
 * This process's limits, read once at load: they cannot change in a running Node process, and once the files have run
 * out, no descriptor may be free to read them.
 */
const OWN = readLimits();

/**
 * Refuse an address-space limit too small for Node to run this program.
 * @returns {string | null} the one-line reason, or null when it is enough
 */
export function checkAddressSpace(limits = OWN) {
  const kib = limits.addressSpaceKiB;
  if (kib === null || kib >= MIN_ADDRESS_SPACE_KIB) return null;
  return `the address-space limit (ulimit -v ${kib} KiB) is below ${MIN_ADDRESS_SPACE_KIB} KiB, under which V8 can abort natively while Node starts (measured: Node 24 and 26 below 1600000 KiB); raise it: ulimit -v ${MIN_ADDRESS_SPACE_KIB}, or unlimited`;
}

/** @param {Limits} limits */
function addressSpaceHint(limits) {
  return limits.addressSpaceKiB === null ? '' : `the address-space limit is ulimit -v ${limits.addressSpaceKiB} KiB: raise it, e.g. ulimit -v unlimited`;
}

/** @param {Limits} limits */
function openFilesHint(limits) {
  return limits.openFiles === null ? 'raise the open-file limit (ulimit -n)' : `the open-file limit is ulimit -n ${limits.openFiles}: raise it, e.g. ulimit -n ${Math.max(4096, 2 * limits.openFiles)}`;
}

/**
 * The message of an error meaning a resource ran out (EMFILE, ENFILE, no memory), with the limit and what to do at the
 * end of its first line (later lines, such as a resume hint, kept); null for any other error.
 * @param {unknown} error
 * @param {Limits} [limits] default: this process's
 */
export function describeResourceError(error, limits = OWN) {
  if (!(error instanceof Error)) return null;
  const { code } = /** @type {NodeJS.ErrnoException} */ (error);
  const [line, ...rest] = error.message.split('\n');
  if (/\bulimit -[nv]\b/.test(line)) return null; // said already (describeResourceCrash)
  const said = (/** @type {string} */ first) => [first, ...rest].join('\n');
  if (code === 'EMFILE' || /\bEMFILE\b|too many open files/i.test(line)) return said(`${line} (${/too many open files/i.test(line) ? '' : 'too many open files: '}${openFilesHint(limits)})`);
  if (code === 'ENFILE' || /\bENFILE\b/.test(line)) return said(`${line} (the system's open-file table is full: see /proc/sys/fs/file-max)`);
  if (code === 'ENOMEM' || code === 'ERR_MEMORY_ALLOCATION_FAILED' || (error instanceof RangeError && /allocation failed/i.test(line))) {
    const hint = addressSpaceHint(limits);
    return said(`out of memory: ${line}${hint ? ` (${hint})` : ''}`);
  }
  return null;
}

/**
 * Why a child Node process died of a resource (V8's fatal out-of-memory reports, EMFILE), in one sentence naming the limit.
 * @param {string} stderr what the child wrote (keepOutput)
 * @param {string} who e.g. 'the trial process'
 * @param {Limits} [limits] the limits the child inherited (default: ours)
 * @returns {string | null} null when stderr shows neither
 */
export function describeResourceCrash(stderr, who, limits = OWN) {
  // V8's words, most specific first: "Fatal process out of memory: Zone" (Node 20: "Fatal process OOM in …"), "FATAL ERROR: … heap out of memory"
  const fatal = stderr.match(/Fatal (?:process|JavaScript) (?:out of memory:|OOM in) *([^\n#]*)/) ?? stderr.match(/FATAL ERROR: *([^\n]*)/) ?? stderr.match(/Fatal error in[^\n]*\n#\s*([^\n]*)/);
  if (fatal) {
    const reason = fatal[1].trim();
    const hint = addressSpaceHint(limits);
    return `out of memory in ${who}${reason ? ` (V8: ${reason})` : ''}${hint ? `; ${hint}` : ''}`;
  }
  if (/\bEMFILE\b|too many open files/i.test(stderr)) return `too many open files in ${who}; ${openFilesHint(limits)}`;
  // libuv aborts when it cannot open the descriptors of its event loop
  if (/uv_loop_init/.test(stderr)) return `too many open files in ${who} (no descriptor left for its event loop); ${openFilesHint(limits)}`;
  return null;
}

/** Lines a crashed Node process prints that say nothing about why. */
const NOISE = /^(at |\d+: 0x[0-9a-f]+|Node\.js v\d|\^+$|FailureMessage Object|-----|<---|\[\d+:0x[0-9a-f]+\]|$)/;

/**
 * The line of a child's stderr that says why it ended: the last error line (`Error: …`), else the last that is not a
 * stack frame, V8's or Node's banner, or blank (V8's `# ` prefix taken off).
 * @param {string} stderr
 * @returns {string} empty when stderr says nothing
 */
export function lastMeaningfulLine(stderr) {
  const lines = stderr.split('\n').map((line) => line.replace(/^#\s*/, '').trim()).filter((line) => !NOISE.test(line)).reverse();
  return lines.find((line) => /^\w*(Error|Exception)\b/.test(line)) ?? lines[0] ?? '';
}

/**
 * Keep a child's stream: its first 4 KiB (where V8 says why it aborts, before a long native stack) and its last 4 KiB.
 * @param {import('node:stream').Readable | null} stream
 * @returns {() => string} the kept text; a line '…' where the middle was dropped
 */
export function keepOutput(stream) {
  const LIMIT = 4096;
  let head = '';
  let tail = '';
  let seen = 0;
  stream?.setEncoding('utf8').on('data', (/** @type {string} */ text) => {
    if (head.length < LIMIT) head += text.slice(0, LIMIT - head.length);
    seen += text.length;
    tail = (tail + text).slice(-LIMIT);
  });
  return () => (seen <= LIMIT ? head : seen <= 2 * LIMIT ? `${head}${tail.slice(2 * LIMIT - seen)}` : `${head}\n…\n${tail}`);
}
