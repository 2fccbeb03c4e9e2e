/**
 * Node executables to run servers and trials with: a path, or a name on PATH. Each is first asked what it is: it must
 * run a line of JavaScript (`<it> -e '…' NONCE`, no shell, a short timeout) printing its versions and the nonce
 * reversed, so a program that only prints Node-like versions is refused, as is a Node older than package.json's
 * `engines` (a pre-release of the minimum is older). Every refusal is a UsageError naming --node.
 */
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from './errors.js';
import { packageJson } from './environment.js';
import { findProgram, isExecutableFile } from './programs.js';

/** How long a Node may take to print its versions (a loaded machine starts Node slowly). */
export const PROBE_TIMEOUT_MS = 10_000;
/** Most Node versions in one sweep. */
export const MAX_NODES = 8;
/** The line of JavaScript an executable must run: its versions, and the nonce it was given reversed. */
const ASK = "process.stdout.write(JSON.stringify({ versions: process.versions, answer: process.argv[1].split('').reverse().join('') }))";

/**
 * @typedef {object} NodeExecutable
 * @property {string} given as the user wrote it (a path or a name on PATH)
 * @property {string} path the absolute path that runs
 * @property {string} version `v20.20.2`, as process.version says it
 * @property {string} v8
 * @property {string} libuv
 */

/** The Node that runs udsvstcp, described without running anything. */
export function currentNode() {
  return /** @type {NodeExecutable} */ ({ given: process.execPath, path: process.execPath, version: process.version, v8: process.versions.v8, libuv: process.versions.uv });
}

/**
 * `>=20.19` of package.json's engines, as [20, 19, 0].
 */
export function enginesMinimum() {
  const text = String(packageJson().engines?.node ?? '');
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new Error(`package.json engines.node must be ">=MAJOR.MINOR"; it is ${JSON.stringify(text)}`);
  return { text, min: [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)] };
}

/**
 * Compare two versions `v20.20.2` (or without the v): negative, zero or positive. As semver orders them, a pre-release
 * comes before its release (`20.19.0-pre` < `20.19.0`); two pre-releases of one version by their tags.
 * @param {string} a
 * @param {string} b
 */
export function compareVersions(a, b) {
  // numbers and pre-release tag: `v20.19.0-pre` → [20, 19, 0], 'pre'
  const [x, y] = [a, b].map((v) => {
    const [core, ...tag] = v.replace(/^v/, '').split('-');
    return { numbers: core.split('.').slice(0, 3).map(Number), pre: tag.length ? tag.join('-') : null };
  });
  for (let i = 0; i < 3; i++) if ((x.numbers[i] ?? 0) !== (y.numbers[i] ?? 0)) return (x.numbers[i] ?? 0) - (y.numbers[i] ?? 0);
  if (x.pre === y.pre) return 0;
  if (x.pre === null) return 1;
  if (y.pre === null) return -1;
  return x.pre < y.pre ? -1 : 1;
}

/**
 * Node versions in order: those of `nodes` in their order, then any others oldest first.
 * @template {string | null} V
 * @param {V[]} found
 * @param {string[]} [nodes]
 * @returns {V[]}
 */
export function orderVersions(found, nodes = []) {
  const older = (/** @type {V} */ a, /** @type {V} */ b) => (a === null ? -1 : b === null ? 1 : compareVersions(a, b) || a.localeCompare(b));
  const unique = [...new Set(found)];
  const listed = nodes.filter((v) => unique.includes(/** @type {V} */ (v)));
  return [.../** @type {V[]} */ (listed), ...unique.filter((v) => !listed.includes(/** @type {string} */ (v))).sort(older)];
}

/** A version as process.version writes it: v, three numbers, maybe a pre-release tag. */
export const VERSION_PATTERN = /^v\d{1,4}\.\d{1,4}\.\d{1,4}(-[0-9A-Za-z.-]{1,40})?$/;

/**
 * Where a name or path leads: a path (it has a /) resolved from the working directory; a bare name from the first
 * absolute PATH directory holding an executable file of that name.
 * @param {string} given
 */
function locate(given) {
  if (given.includes('/')) {
    const path = resolve(given);
    if (!fs.existsSync(path)) throw new UsageError(`--node ${given}: no such file; give the path of a Node executable or a name on PATH (e.g. node)`, 'ERR_NODE');
    if (!isExecutableFile(path)) throw new UsageError(`--node ${given}: not an executable file; give the path of a Node executable or a name on PATH (e.g. node)`, 'ERR_NODE');
    return path;
  }
  const found = findProgram(given);
  if (!found) throw new UsageError(`--node ${given}: not found on PATH; give a path (e.g. /tmp/n26/node_modules/.bin/node) or a name on PATH`, 'ERR_NODE');
  return found;
}

/**
 * Find and ask one Node executable what it is.
 * @param {string} given a path or a name on PATH
 */
export function findNode(given) {
  if (typeof given !== 'string' || given.trim() === '') throw new UsageError(`--node must name a Node executable (a path or a name on PATH); got ${JSON.stringify(given)}`, 'ERR_NODE');
  const path = locate(given);
  const nonce = String(randomInt(1e9, 1e12));
  const result = spawnSync(path, ['-e', ASK, nonce], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: PROBE_TIMEOUT_MS, maxBuffer: 64 * 1024, shell: false });
  const stdout = String(result.stdout ?? '').trim();
  /** @type {Record<string, any> | null} */
  let answer = null;
  try {
    const parsed = JSON.parse(stdout);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) answer = parsed;
  } catch {
    // not JSON: not Node
  }
  const versions = answer?.versions && typeof answer.versions === 'object' ? answer.versions : answer; // a program that prints process.versions alone
  const version = typeof versions?.node === 'string' ? `v${versions.node}` : '';
  const looksLikeNode = VERSION_PATTERN.test(version) && typeof versions?.v8 === 'string' && typeof versions?.uv === 'string';
  const what = result.error
    ? (/** @type {NodeJS.ErrnoException} */ (result.error).code === 'ETIMEDOUT' ? `gave no answer within ${PROBE_TIMEOUT_MS / 1000} s` : `could not be run (${result.error.message})`)
    : result.signal ? `was killed by ${result.signal}`
      : result.status !== 0 ? `exited with code ${result.status}`
        : stdout === '' ? 'printed nothing'
          : !looksLikeNode ? `printed something else (${JSON.stringify(stdout.slice(0, 60))}${stdout.length > 60 ? '…' : ''})`
            : '';
  const asked = `\`${path} -e <a line of JavaScript>\``;
  if (what) throw new UsageError(`--node ${given}: not Node: ${asked} ${what}`, 'ERR_NODE');
  const engines = enginesMinimum();
  if (compareVersions(version, engines.min.join('.')) < 0) { // a pre-release of the minimum does not meet engines
    throw new UsageError(`--node ${given} is Node ${version}; udsvstcp needs Node ${engines.text} (package.json engines${version.includes('-') ? '; a pre-release comes before its release' : ''})`, 'ERR_NODE');
  }
  if (answer?.answer !== [...nonce].reverse().join('')) {
    throw new UsageError(`--node ${given}: not Node: ${asked} printed Node-like versions but not what the line computes: it does not run JavaScript`, 'ERR_NODE');
  }
  return { given, path, version, v8: String(versions.v8).slice(0, 100), libuv: String(versions.uv).slice(0, 100) };
}

/**
 * Find and ask several: each at most once by version.
 * @param {string[]} list paths or names on PATH, in the order given (the first is the baseline)
 */
export function findNodes(list) {
  if (list.length > MAX_NODES) throw new UsageError(`--node takes at most ${MAX_NODES} Node executables; got ${list.length}`, 'ERR_NODE');
  const nodes = list.map(findNode);
  for (const [i, node] of nodes.entries()) {
    const first = nodes.findIndex((n) => n.version === node.version);
    if (first !== i) throw new UsageError(`--node: ${nodes[first].given} and ${node.given} are both Node ${node.version}; give each version once`, 'ERR_NODE');
  }
  return nodes;
}

/**
 * One line for people: which Node runs, and from where.
 * @param {NodeExecutable[]} nodes
 */
export function describeNodes(nodes) {
  return nodes.map((n) => `${n.path} (${n.version}, V8 ${n.v8}, libuv ${n.libuv})`).join('; ');
}
