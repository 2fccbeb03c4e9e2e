/** Commands printed for people to paste into a POSIX shell. */
import { existsSync, realpathSync } from 'node:fs';
import { findProgram } from './programs.js';

/**
 * One argument, quoted for a POSIX shell where it needs it.
 * @param {string} arg
 */
export function shellQuote(arg) {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * How a printed command names a Node executable in --node: a name found on PATH as given, a path absolute (so the
 * command works from any directory); a placeholder where neither is known.
 * @param {{ given?: unknown, path?: unknown, version?: unknown }} node
 */
function nodeArgument({ given, path, version }) {
  const usable = (/** @type {unknown} */ v) => typeof v === 'string' && v !== '' && !v.includes(',');
  if (usable(given) && !String(given).includes('/')) return String(given);
  if (usable(path) && String(path).startsWith('/')) return String(path);
  if (usable(given)) return String(given);
  return `<a Node ${typeof version === 'string' ? version : 'executable'}>`;
}

/**
 * The command that continues a sweep in `dir`. A sweep run with --node is resumed with --node too: its executables are
 * never read back from meta.json, so the command names them.
 * @param {string} dir
 * @param {{ given?: unknown, path?: unknown, version?: unknown }[] | null} [nodes] the Node executables, the
 *   baseline first; null or none: the sweep runs the Node running udsvstcp, and the command names none
 */
export function resumeCommand(dir, nodes = null) {
  const node = nodes?.length ? ` --node ${shellQuote(nodes.map(nodeArgument).join(','))}` : '';
  return `npx udsvstcp sweep --resume ${shellQuote(dir)}${node}`;
}

/**
 * Whether a Node executable that exists here is not the one `npx` runs (PATH's first `node`): a sweep it ran is
 * resumed with `--node` naming it, or the resume is refused for its version.
 * @param {unknown} path
 */
export function isOtherNode(path) {
  if (typeof path !== 'string' || !path.startsWith('/') || !existsSync(path)) return false;
  const onPath = findProgram('node');
  try {
    return !onPath || realpathSync(onPath) !== realpathSync(path);
  } catch {
    return false;
  }
}
