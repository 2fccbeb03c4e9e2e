#!/usr/bin/env node
/**
 * How precise is a sweep, and does a second one agree? Runs a preset twice,
 * back to back (or reads two results directories given with --dirs A,B), and
 * prints for each: the median and widest half-width of its UDS/TCP msgs/s
 * intervals and its wall time; then in how many groups the two intervals
 * overlap, and how far apart the two ratios are at the median group.
 *
 *   node test/bench/repeatability.js [--preset default] [--flags="--server round"] [--dirs A,B]
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { parse } from 'csv-parse/sync';

const BIN = fileURLToPath(new URL('../../bin/udsvstcp.js', import.meta.url));
const run = promisify(execFile);
const { values } = parseArgs({ options: { preset: { type: 'string', default: 'default' }, dirs: { type: 'string' }, flags: { type: 'string', default: '' } } });

/** @param {number[]} x */
const median = (x) => { const s = [...x].sort((a, b) => a - b); return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2; };

/** @param {string} dir @returns {Promise<Record<string, string>[]>} */
async function ratios(dir) {
  /** @type {Record<string, string>[]} */
  const rows = parse(await readFile(join(dir, 'summary.csv'), 'utf8'), { columns: true });
  return rows.filter((r) => r.transport === 'uds/tcp' && r.metric === 'msgs_per_s');
}

const scratch = values.dirs ? null : await mkdtemp(join(tmpdir(), 'udsvstcp-repeat-'));
try {
  const dirs = values.dirs ? values.dirs.split(',') : [join(/** @type {string} */ (scratch), 'a'), join(/** @type {string} */ (scratch), 'b')];
  if (!values.dirs) {
    for (const dir of dirs) {
      const t0 = performance.now();
      await run(process.execPath, [BIN, 'sweep', values.preset, ...values.flags.split(' ').filter(Boolean), '--quiet', '--out', dir], { timeout: 1_800_000 });
      process.stdout.write(`${dir}: ${((performance.now() - t0) / 1000).toFixed(1)} s wall\n`);
    }
  }
  const [a, b] = await Promise.all(dirs.map(ratios));
  for (const [i, rows] of [a, b].entries()) {
    const widths = rows.map((r) => Number(r.ci95_half_width_pct));
    process.stdout.write(`sweep ${i + 1}: ${rows.length} groups, median half-width ±${median(widths).toFixed(1)} %, widest ±${Math.max(...widths).toFixed(1)} %\n`);
  }
  let overlap = 0;
  const apart = [];
  for (const ra of a) {
    const rb = b.find((r) => r.size_bytes === ra.size_bytes && r.depth === ra.depth);
    if (!rb) continue;
    if (Number(ra.ci95_low) <= Number(rb.ci95_high) && Number(rb.ci95_low) <= Number(ra.ci95_high)) overlap++;
    apart.push(Math.abs(Number(ra.mean) / Number(rb.mean) - 1) * 100);
  }
  process.stdout.write(`intervals overlap in ${overlap} of ${apart.length} groups; the ratios differ by ${median(apart).toFixed(1)} % at the median group (at most ${Math.max(...apart).toFixed(1)} %)\n`);
} finally {
  if (scratch) await rm(scratch, { recursive: true, force: true });
}
