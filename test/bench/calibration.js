#!/usr/bin/env node
/**
 * Are the UDS/TCP intervals honest? Repeats one group many times, each
 * repeat a whole sweep of its own (a fresh server process and fresh trial
 * processes, under the default preset's rules, its target precision and
 * stopping rule included, as `npx udsvstcp sweep` would run that group), and counts how
 * many of the repeats' 95 % intervals contain the median of all repeats'
 * ratios. An honest 95 % interval holds it in about 9 of 10 repeats or more;
 * one that is too narrow (blocks of one process treated as independent,
 * say) holds it far less often.
 *
 *   node test/bench/calibration.js [--groups 1:1,1024:16] [--repeats 10] [--runs 3] [--duration 250ms] [--warmup 50ms]
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { parse } from 'csv-parse/sync';

const BIN = fileURLToPath(new URL('../../bin/udsvstcp.js', import.meta.url));
const run = promisify(execFile);

const { values } = parseArgs({
  options: {
    groups: { type: 'string', default: '1:1,1024:16' },
    repeats: { type: 'string', default: '10' },
    runs: { type: 'string', default: '3' },
    duration: { type: 'string', default: '250ms' },
    warmup: { type: 'string', default: '50ms' },
  },
});
const repeats = Number(values.repeats);
const dir = await mkdtemp(join(tmpdir(), 'udsvstcp-calibration-'));
process.stderr.write(`calibration: node ${process.version}, ${repeats} repeats of each group, ${values.runs} runs of ${values.duration} per transport each\n`);
const lines = ['| group | repeats | median ratio | CIs holding the median | median CI half-width | ratios (CI) |', '|---|---:|---:|---:|---:|---|'];
try {
  for (const group of values.groups.split(',')) {
    const [size, depth] = group.split(':');
    /** @type {{ mean: number, low: number, high: number, half: number }[]} */
    const results = [];
    for (let i = 0; i < repeats; i++) {
      const out = join(dir, `${size}-${depth}-${i}`);
      await run(process.execPath, [BIN, 'sweep', '--sizes', size, '--depths', depth, '--runs', values.runs, '--duration', values.duration, '--warmup', values.warmup, '--quiet', '--out', out], { timeout: 600_000 });
      /** @type {Record<string, string>[]} */
      const summary = parse(await readFile(join(out, 'summary.csv'), 'utf8'), { columns: true });
      const ratio = summary.find((r) => r.transport === 'uds/tcp' && r.metric === 'msgs_per_s');
      if (!ratio) throw new Error(`no UDS/TCP ratio in ${out}/summary.csv`);
      results.push({ mean: Number(ratio.mean), low: Number(ratio.ci95_low), high: Number(ratio.ci95_high), half: Number(ratio.ci95_half_width_pct) });
      process.stderr.write(`  ${size} B depth ${depth} repeat ${i}: ×${results[i].mean.toFixed(3)} [${results[i].low.toFixed(3)}, ${results[i].high.toFixed(3)}]\n`);
    }
    const sorted = results.map((r) => r.mean).sort((a, b) => a - b);
    const median = (sorted[(sorted.length - 1) >> 1] + sorted[sorted.length >> 1]) / 2;
    const held = results.filter((r) => r.low <= median && median <= r.high).length;
    const halves = results.map((r) => r.half).sort((a, b) => a - b);
    const medianHalf = (halves[(halves.length - 1) >> 1] + halves[halves.length >> 1]) / 2;
    lines.push(`| ${size} B depth ${depth} | ${repeats} | ${median.toFixed(3)} | ${held} of ${repeats} | ±${medianHalf.toFixed(1)} % | ${results.map((r) => `${r.mean.toFixed(2)} (${r.low.toFixed(2)}–${r.high.toFixed(2)})`).join(', ')} |`);
    process.stderr.write(`${size} B depth ${depth}: ${held} of ${repeats} intervals hold the median ratio ${median.toFixed(3)}\n`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
process.stdout.write(`${lines.join('\n')}\n`);
