#!/usr/bin/env node
/**
 * How fast does the command line start? Times `udsvstcp --version` and
 * `udsvstcp --help` against a bare `node -e 0`, each a fresh process, the
 * three interleaved run by run (so a change in the machine's load hits all
 * alike), and prints the median and mean wall time of each and its ratio
 * to bare node. The goal is at most 2×: nothing but the command line
 * (commander, chalk) and the declarations its help names load before a
 * command runs; report, chart, spreadsheet and HTTP libraries load when
 * used. The load average is printed beside the figures: on a busy machine
 * every figure is larger and the ratios are what to read.
 *
 *   node test/bench/startup.js [--runs 20] [--warmup 3] [--bin path/to/udsvstcp.js]
 *
 * --bin times another copy (an installed package, an older checkout).
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    bin: { type: 'string', default: fileURLToPath(new URL('../../bin/udsvstcp.js', import.meta.url)) },
  },
});
const CASES = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'udsvstcp --version', args: [values.bin, '--version'] },
  { name: 'udsvstcp --help', args: [values.bin, '--help'] },
];
const runs = Number(values.runs);
const warmup = Number(values.warmup);
if (!Number.isInteger(runs) || runs < 1 || runs > 1000) throw new Error('--runs must be an integer from 1 to 1000');
if (!Number.isInteger(warmup) || warmup < 0 || warmup > 100) throw new Error('--warmup must be an integer from 0 to 100');

/**
 * One run of a case: its wall time in ms.
 * @param {{ name: string, args: string[] }} c
 */
function time(c) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, c.args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${c.name} exited with ${result.status ?? result.signal}: ${String(result.stderr).trim()}`);
  return ms;
}

/** @param {number[]} xs */
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** @param {number[]} xs */
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

const before = loadavg()[0];
for (let i = 0; i < warmup; i++) for (const c of CASES) time(c);
/** @type {number[][]} */
const times = CASES.map(() => []);
for (let i = 0; i < runs; i++) CASES.forEach((c, k) => times[k].push(time(c)));
const after = loadavg()[0];

const base = median(times[0]);
process.stdout.write(`${values.bin}\nnode ${process.version}, ${runs} runs each (interleaved, after ${warmup} warm-up), load average ${before.toFixed(1)} → ${after.toFixed(1)}\n\n`);
process.stdout.write('| command | median ms | mean ms | median / node -e 0 |\n|---|---:|---:|---:|\n');
CASES.forEach((c, k) => {
  process.stdout.write(`| ${c.name} | ${median(times[k]).toFixed(1)} | ${mean(times[k]).toFixed(1)} | ${(median(times[k]) / base).toFixed(2)}× |\n`);
});
const worst = Math.max(...times.slice(1).map((t) => median(t) / base));
process.stdout.write(`\n${worst <= 2 ? 'within' : 'ABOVE'} the goal of 2× bare node (worst ${worst.toFixed(2)}×)\n`);
