/**
 * Tiny real sweeps (a few trials of 100 packets) and readers of their files.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { BIN } from './cli.js';

/**
 * Write a spec file: 2 sizes × 2 transports × `runs` runs of 100 packets.
 * Tests sweep it with --test (no server warm-up) unless the warm-up is what they test.
 * @param {string} dir
 * @param {Record<string, unknown>} [overrides]
 */
export async function writeTinySpec(dir, overrides = {}) {
  const path = join(dir, 'tiny.json');
  await writeFile(path, JSON.stringify({ sizes: [1, 64], depths: [1], transports: ['tcp', 'uds'], runs: 2, packets: 100, warmup: 0, seed: 9, ...overrides }));
  return path;
}

/** @param {string} dir @returns {Promise<Record<string, any>[]>} */
export async function readTrialRows(dir) {
  return parse(await readFile(join(dir, 'trials.csv'), 'utf8'), { columns: true });
}

/** @param {string} dir @returns {Promise<Record<string, any>>} */
export async function readMetaJson(dir) {
  return JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8'));
}

/**
 * fixture.json of a results directory, or null: not there yet, or being replaced.
 * @param {string} dir
 */
export function readFixtureRecord(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, 'fixture.json'), 'utf8'));
  } catch {
    return null;
  }
}

/** @param {Record<string, any>} row */
export const keyOf = (row) => `${row.run}|${row.size_bytes}|${row.depth}|${row.transport}`;

/**
 * Start `udsvstcp sweep …` and hand its stderr, as it grows, to `onStderr`.
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, onStderr?: (text: string, child: import('node:child_process').ChildProcess) => void }} [options]
 * @returns {{ child: import('node:child_process').ChildProcess, done: Promise<{ code: number | null, signal: string | null, stderr: string }> }}
 */
export function startSweep(args, { env = {}, onStderr } = {}) {
  const child = spawn(process.execPath, [BIN, 'sweep', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...env } });
  let stderr = '';
  child.stdout?.resume();
  child.stderr?.setEncoding('utf8').on('data', (text) => {
    stderr += text;
    onStderr?.(stderr, child);
  });
  const done = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr })));
  return { child, done: /** @type {any} */ (done) };
}
