/**
 * The Node-version axis of a sweep: which Node executables this session runs servers and trials with. A new sweep asks
 * those of --node, or runs the Node running udsvstcp. A resumed sweep never takes an executable from meta.json (a
 * results directory is data: anyone who can write it could name a program): they come from --node, PATH or the running
 * Node, and must have the versions meta.json records, in its order (the first is every comparison's baseline).
 */
import { UsageError } from '../core/errors.js';
import { VERSION_PATTERN, currentNode, findNodes } from '../core/node-executables.js';

/** @typedef {import('../core/node-executables.js').NodeExecutable} NodeExecutable */

/**
 * What meta.json records of a Node, for each session and at the top level.
 * @param {NodeExecutable[]} nodes
 */
export function toNodeRecords(nodes) {
  return nodes.map((n) => ({ version: n.version, v8: n.v8, libuv: n.libuv, path: n.path, given: n.given }));
}

/**
 * The Nodes of a resumed sweep: from --node or the running Node, never from meta.json; each recorded version once.
 * @param {Record<string, any>} meta
 * @param {string[] | null} given --node
 * @param {string} dir
 * @param {string} where meta.json's path, for messages
 * @returns {NodeExecutable[]} in the recorded order
 */
export function nodesForResume(meta, given, dir, where) {
  // the versions measured, in order (every directory this version can resume records them)
  /** @type {string[] | null} */
  const versions = Array.isArray(meta.nodes) ? meta.nodes.map((/** @type {any} */ n) => n?.version) : null;
  if (!versions || versions.length === 0 || !versions.every((v) => typeof v === 'string' && VERSION_PATTERN.test(v)) || new Set(versions).size !== versions.length) {
    throw new UsageError(`${where} "nodes" must list the Node versions measured, each once ({"version": "v20.20.2", …}); got ${JSON.stringify(meta.nodes)?.slice(0, 200)}; it was edited by hand`, 'ERR_META');
  }
  const found = given === null ? [currentNode()] : findNodes(given);
  const missing = versions.filter((v) => !found.some((n) => n.version === v));
  const extra = found.filter((n) => !versions.includes(n.version));
  if (missing.length || extra.length) {
    const have = found.map((n) => `${n.version} (${n.path})`).join(', ');
    throw new UsageError(`--resume ${dir} was measured with Node ${versions.join(', ')}; ${given === null ? 'this is' : '--node gives'} ${have}: give --node with one executable of each recorded version (a path or a name on PATH; executables are never taken from meta.json)`, 'ERR_NODE');
  }
  return versions.map((v) => /** @type {NodeExecutable} */ (found.find((n) => n.version === v)));
}
