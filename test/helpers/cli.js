/**
 * Run the real udsvstcp binary in a child process.
 */
import { expect } from 'vitest';
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { main } from '../../lib/cli.js';

export const BIN = fileURLToPath(new URL('../../bin/udsvstcp.js', import.meta.url));

/**
 * Run a Node script of ours in a child process of this Node, collecting its output.
 * @param {string} script
 * @param {string[]} args
 * @param {{ timeoutMs?: number, env?: NodeJS.ProcessEnv, cwd?: string, uid?: number, gid?: number, prefix?: string[] }} [options] uid, gid: run it as
 *   that user; prefix: a command that runs Node after it, e.g. `['sh', '-c', 'ulimit -n 64 && exec "$0" "$@"']`
 * @returns {Promise<{ code: number | null, signal: string | null, stdout: string, stderr: string }>}
 */
export function runScript(script, args, { timeoutMs = 60_000, env = {}, cwd, uid, gid, prefix = [] } = {}) {
  return new Promise((resolve, reject) => {
    const [command, ...rest] = [...prefix, process.execPath, script, ...args];
    const child = spawn(command, rest, { env: { ...process.env, NO_COLOR: '1', ...env }, cwd, uid, gid, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t) => { stdout += t; });
    child.stderr.setEncoding('utf8').on('data', (t) => { stderr += t; });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} ${args.join(' ')} did not finish within ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/**
 * @param {string[]} args
 * @param {{ timeoutMs?: number, env?: NodeJS.ProcessEnv, cwd?: string }} [options]
 */
export function runCli(args, options = {}) {
  return runScript(BIN, args, options);
}

/**
 * Start `udsvstcp serve --json` and wait for its line.
 * @param {string[]} [args]
 * @param {NodeJS.ProcessEnv} [env]
 */
export function startServeCli(args = [], env = {}) {
  const child = spawn(process.execPath, [BIN, 'serve', '--json', ...args], { env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (t) => { stderr += t; });
  /** @type {Promise<{ code: number | null, signal: string | null }>} */
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  /** @type {Promise<{ tcp: { host: string, port: number }, uds: { path: string } }>} */
  const ready = new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (t) => {
      stdout += t;
      if (stdout.includes('\n')) resolve(JSON.parse(stdout.split('\n')[0]));
    });
    exited.then(({ code }) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  return { child, ready, exited, stderr: () => stderr };
}

export { makeTempDir } from './temp.js';

/** a callMain with env runs */
let envHeld = false;

/**
 * main() in this process, with its output in strings: for what needs no
 * child process of its own (refusals, rules, and sweeps whose test is not how the
 * process ends: their lanes and servers are processes all the same), where runCli would spawn the binary.
 * @param {string[]} args
 * @param {{ env?: Record<string, string> }} [options] env: variables set while main() runs
 */
export async function callMain(args, { env = {} } = {}) {
  const [stdout, stderr] = [new PassThrough(), new PassThrough()];
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (t) => { out += t; });
  stderr.setEncoding('utf8').on('data', (t) => { err += t; });
  // the variables asked for are this process's while main() runs, then put back: never two such calls at once
  // (describe.concurrent), as the second would see the first's
  if (Object.keys(env).length && envHeld) throw new Error('callMain with env while another callMain with env runs: use runCli in concurrent tests');
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  envHeld ||= Object.keys(env).length > 0;
  try {
    const code = await main(args, { stdout, stderr, env: { NO_COLOR: '1' } });
    return { code, stdout: out, stderr: err };
  } finally {
    if (Object.keys(env).length) envHeld = false;
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

/**
 * Assert a usage error as the CLI gives it: exit 2, nothing on stdout, one
 * line on stderr that matches `message`, and no server started.
 * @param {{ code: number | null, stdout: string, stderr: string }} result
 * @param {RegExp | string} message
 */
export function expectOneLineUsageError({ code, stdout, stderr }, message) {
  expect(code, stderr).toBe(2);
  expect(stdout).toBe('');
  expect(stderr.trimEnd().split('\n'), stderr).toHaveLength(1);
  expect(stderr).toMatch(/^udsvstcp: error: /);
  expect(stderr).toMatch(message);
  expect(stderr).not.toContain('server pid');
}

/**
 * callMain with its stderr handed, as it grows, to `onStderr`: for a test
 * that acts on what main() says while it runs (a fault done to its server).
 * @param {string[]} args
 * @param {(text: string) => void} onStderr all of stderr so far
 */
export async function callMainWatched(args, onStderr) {
  const [stdout, stderr] = [new PassThrough(), new PassThrough()];
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (t) => { out += t; });
  stderr.setEncoding('utf8').on('data', (t) => {
    err += t;
    onStderr(err);
  });
  const code = await main(args, { stdout, stderr, env: { NO_COLOR: '1' } });
  return { code, stdout: out, stderr: err };
}
