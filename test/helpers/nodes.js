/**
 * A second Node version for the tests of the Node-version axis: the Node
 * that runs the tests (process.execPath) and the one UDSVSTCP_TEST_NODE2
 * names. Without it those tests fail, saying how to get one: they never
 * skip silently.
 */
import { spawnSync } from 'node:child_process';

/** Where the tests look for the second Node. */
export const NODE2_VARIABLE = 'UDSVSTCP_TEST_NODE2';

/**
 * The second Node's path and version, different from the running Node's.
 * @returns {{ path: string, version: string }}
 */
export function secondNode() {
  const path = process.env[NODE2_VARIABLE];
  const how = `set ${NODE2_VARIABLE} to a Node executable of another version than this one (${process.version}), e.g. npm i --prefix /tmp/n26 node@26 && ${NODE2_VARIABLE}=/tmp/n26/node_modules/.bin/node (.ci/run does it)`;
  if (!path) throw new Error(`the Node-version axis tests need a second Node: ${how}`);
  const result = spawnSync(path, ['-p', 'process.version'], { encoding: 'utf8', timeout: 10_000 });
  const version = String(result.stdout ?? '').trim();
  if (result.status !== 0 || !/^v\d+\.\d+\.\d+/.test(version)) throw new Error(`${NODE2_VARIABLE}=${path} is not a Node executable (${result.error?.message ?? `exit ${result.status}`}): ${how}`);
  if (version === process.version) throw new Error(`${NODE2_VARIABLE}=${path} is ${version}, the same version as the Node running the tests: ${how}`);
  return { path, version };
}
