#!/usr/bin/env node
/**
 * Does a pair's ratio depend on which other transports share the trial?
 * For each transport X and depth, `udsvstcp run --transport tcp,X` against
 * the full list, in interleaved rounds (the pair, then the full list; the
 * other way round next round), each with --runs trials; prints X/TCP msgs/s
 * with its 95 % interval under both, and whether the intervals overlap.
 * In 0.5.0 ipc-json/TCP was 0.45 in a pair and 1.35 among five
 * (docs/validation.md#lanes-under-equal-conditions).
 *
 *   node test/bench/lanes.js [--size 1KiB] [--depths 1,16] [--runs 3] [--rounds 1]
 *     [--duration 1s] [--warmup 500ms] [--pin split] [--transports uds,uds-abstract,ipc-json,ipc-advanced,worker]
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import os from 'node:os';
import { alignColumns } from './table.js';
import { pairedLogRatios, ratioInterval } from '../../lib/stats/ratios.js';

const BIN = fileURLToPath(new URL('../../bin/udsvstcp.js', import.meta.url));

/**
 * One `udsvstcp run`, its JSON records.
 * @param {string[]} flags
 * @returns {Promise<Record<string, any>[]>}
 */
function run(flags) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, 'run', ...flags, '--json'], { maxBuffer: 1 << 24, timeout: 600_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`udsvstcp run ${flags.join(' ')} failed (${error.message.split('\n')[0]}): ${String(stderr).trim().split('\n').pop()}`));
      else resolve(String(stdout).trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)));
    });
  });
}

/** @param {import('../../lib/stats/ratios.js').RatioInterval} i */
const show = (i) => `${i.mean.toFixed(2)} [${i.low?.toFixed(2) ?? '-'}–${i.high?.toFixed(2) ?? '-'}]`;

async function main() {
  const { values } = parseArgs({
    options: {
      size: { type: 'string', default: '1KiB' },
      depths: { type: 'string', default: '1,16' },
      runs: { type: 'string', default: '3' },
      rounds: { type: 'string', default: '1' },
      duration: { type: 'string', default: '1s' },
      warmup: { type: 'string', default: '500ms' },
      pin: { type: 'string', default: 'split' },
      transports: { type: 'string', default: 'uds,uds-abstract,ipc-json,ipc-advanced,worker' },
    },
  });
  const depths = values.depths.split(',');
  const others = values.transports.split(',');
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) {
    process.stderr.write('lanes: --rounds must be 1 to 20\n');
    return 2;
  }
  const common = ['--size', values.size, '--duration', values.duration, '--warmup', values.warmup, '--runs', values.runs, '--pin', values.pin];
  const full = ['tcp', ...others].join(',');
  /** @type {Map<string, { pair: Record<string, any>[], full: Record<string, any>[] }>} */
  const rows = new Map();
  const key = (/** @type {string} */ depth, /** @type {string} */ x) => `${depth} ${x}`;
  for (let round = 0; round < rounds; round++) {
    for (const depth of depths) {
      const jobs = [...others.map((x) => ({ x, list: `tcp,${x}` })), { x: null, list: full }];
      for (const job of round % 2 === 0 ? jobs : jobs.reverse()) {
        process.stderr.write(`round ${round + 1}: depth ${depth}, --transport ${job.list}\n`);
        const records = await run([...common, '--depth', depth, '--transport', job.list]);
        const bad = records.find((r) => r.status !== 'ok');
        if (bad) throw new Error(`${bad.transport} failed: ${bad.error}`);
        // each run's records, numbered across rounds so that pairing stays within a run
        const numbered = records.map((r, i) => ({ ...r, transport: r.transport, run: round * 1000 + Math.floor(i / job.list.split(',').length) }));
        for (const x of job.x ? [job.x] : others) {
          const entry = rows.get(key(depth, x)) ?? { pair: [], full: [] };
          entry[job.x ? 'pair' : 'full'].push(...numbered.filter((r) => r.transport === 'tcp' || r.transport === x));
          rows.set(key(depth, x), entry);
        }
      }
    }
  }
  /** @type {string[][]} */
  const table = [];
  for (const depth of depths) {
    for (const x of others) {
      const entry = /** @type {{ pair: Record<string, any>[], full: Record<string, any>[] }} */ (rows.get(key(depth, x)));
      const pair = ratioInterval(pairedLogRatios(entry.pair, 'msgs_per_s', x));
      const among = ratioInterval(pairedLogRatios(entry.full, 'msgs_per_s', x));
      const overlap = pair.low !== null && among.low !== null && /** @type {number} */ (pair.low) <= /** @type {number} */ (among.high) && /** @type {number} */ (among.low) <= /** @type {number} */ (pair.high);
      table.push([x, depth, show(pair), show(among), overlap ? 'yes' : 'no']);
    }
  }
  process.stdout.write(`node ${process.version} · ${os.availableParallelism()} CPUs · ${values.size}, ${values.runs} runs of ${values.duration} per list and round, ${rounds} round(s), --pin ${values.pin}\n\n`);
  process.stdout.write(`${alignColumns(['X', 'depth', 'X/TCP in tcp,X', `X/TCP in ${full}`, 'overlap'], table)}\n`);
  return 0;
}

main().then((code) => { process.exitCode ??= code; }, (error) => {
  process.stderr.write(`lanes: ${error.message}\n`);
  process.exitCode ??= 1;
});
