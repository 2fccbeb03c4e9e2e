#!/usr/bin/env node
/**
 * Test the depth-1 explanation instead of guessing it. With one message in
 * flight each end sleeps until the other answers, so a round trip includes
 * waking the other end's idle CPU; the wake-up probe (meta.json's
 * machine.wakeup) says that costs more than the transport on a VM. If that
 * is what sets the depth-1 UDS/TCP ratio, putting both ends on one CPU (no
 * cross-CPU wake-up: `--pin same`) must move it, against client and server
 * on CPUs of their own (`--pin split`). This runs depth-1 echo sweeps with
 * the real CLI under both, in interleaved rounds (A B, B A, A B …), and
 * prints per round and size the UDS/TCP msgs/s ratio, each transport's mean
 * round trip and the client's voluntary context switches per message.
 *
 *   node test/bench/wakeup.js [--sizes 16,1KiB,16KiB] [--runs 5] [--rounds 3]
 *
 * Needs taskset (util-linux) and two CPUs; refuses otherwise (exit 2).
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { alignColumns } from './table.js';
import { findProgram } from '../../lib/core/programs.js';

const BIN = fileURLToPath(new URL('../../bin/udsvstcp.js', import.meta.url));
const PINS = /** @type {const} */ (['split', 'same']);

/**
 * @typedef {object} Condition
 * @property {string} label e.g. `same (2)`
 * @property {Record<string, any>[]} summary
 */

/**
 * @param {string[]} flags
 * @param {string} dir
 */
function sweep(flags, dir) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, 'sweep', ...flags, '--no-probe', '--quiet', '--out', dir], { maxBuffer: 1 << 24 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`udsvstcp sweep failed (${error.message.split('\n')[0]}): ${String(stderr).trim().split('\n').pop()}`));
      else resolve(undefined);
    });
  });
}

/** @param {unknown} v */
const num = (v) => (v === undefined || v === '' || v === null ? NaN : Number(v));
/** @param {number} v @param {number} [digits] */
const fmt = (v, digits = 2) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
/** @param {number} bytes */
const size = (bytes) => (bytes >= 1024 ? `${bytes / 1024} KiB` : `${bytes} B`);

/**
 * The table: a row per size, pin and round.
 * @param {Condition[]} conditions
 */
export function toTable(conditions) {
  const sizes = [...new Set(conditions.flatMap((c) => c.summary.map((r) => num(r.size_bytes))))].sort((a, b) => a - b);
  const get = (/** @type {Condition} */ c, /** @type {number} */ s, /** @type {string} */ transport, /** @type {string} */ metric) => c.summary.find((r) => num(r.size_bytes) === s && r.transport === transport && r.metric === metric);
  const header = ['pin (round)', 'size', 'UDS/TCP msgs/s [95 % CI]', 'RTT mean µs TCP', 'UDS', 'client vcsw/msg TCP', 'UDS'];
  const rows = sizes.flatMap((s) => conditions.map((c) => {
    const ratio = get(c, s, 'uds/tcp', 'msgs_per_s');
    const centre = num(ratio?.geomean);
    return [
      c.label, size(s), ratio ? `${fmt(centre)} [${fmt(num(ratio.ci95_low))}–${fmt(num(ratio.ci95_high))}]` : 'n/a',
      fmt(num(get(c, s, 'tcp', 'rtt_mean_us')?.mean), 0), fmt(num(get(c, s, 'uds', 'rtt_mean_us')?.mean), 0),
      fmt(num(get(c, s, 'tcp', 'client_vcsw_per_msg')?.mean)), fmt(num(get(c, s, 'uds', 'client_vcsw_per_msg')?.mean)),
    ];
  }));
  return alignColumns(header, rows);
}

async function main() {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '16,1KiB,16KiB' },
      runs: { type: 'string', default: '5' },
      rounds: { type: 'string', default: '3' },
    },
  });
  for (const [flag, value, max] of /** @type {[string, string, number][]} */ ([['--runs', values.runs, 100], ['--rounds', values.rounds, 10]])) {
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
      process.stderr.write(`wakeup bench: ${flag} must be a whole number from 1 to ${max}; got ${value}\n`);
      return 2;
    }
  }
  if (os.availableParallelism() < 2 || !findProgram('taskset')) {
    process.stderr.write('wakeup bench: needs taskset (util-linux) and at least two CPUs, to put both ends on one CPU and on two\n');
    return 2;
  }
  const root = await mkdtemp(join(tmpdir(), 'udsvstcp-wakeup-'));
  try {
    /** @type {Condition[]} */
    const conditions = [];
    for (let round = 1; round <= Number(values.rounds); round++) {
      for (const pin of round % 2 === 1 ? PINS : [...PINS].reverse()) {
        const dir = join(root, `${pin}-${round}`);
        process.stderr.write(`round ${round}: depth-1 echo sweep, --pin ${pin}…\n`);
        await sweep(['--sizes', values.sizes, '--depths', '1', '--runs', values.runs, '--precision', '100%', '--pin', pin], dir);
        const file = join(dir, 'summary.csv');
        conditions.push({ label: `${pin} (${round})`, summary: existsSync(file) ? parse(readFileSync(file, 'utf8'), { columns: true }) : [] });
      }
    }
    conditions.sort((a, b) => a.label.localeCompare(b.label));
    process.stdout.write(`${toTable(conditions)}\n`);
    return 0;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then((code) => { process.exitCode ??= code; }, (error) => {
    process.stderr.write(`wakeup bench: ${error.message}\n`);
    process.exitCode ??= 1;
  });
}
