#!/usr/bin/env node
/**
 * Are the UDS/TCP intervals honest? Repeats a whole preset sweep (the default
 * one unless told) many times, each a sweep of its own with a fresh server
 * and fresh trial processes, exactly as `npx udsvstcp sweep` runs it: its
 * target precision, its stopping rule and the moderation of each group's
 * variance across the sweep's groups are all part of what is checked. For
 * every group it counts how many of the repeats' 95 % intervals contain the
 * median of all repeats' ratios. An honest 95 % interval holds it in about 9
 * of 10 repeats or more; one that is too narrow (blocks of one process
 * treated as independent, say, or groups pooled that differ) holds it far
 * less often.
 *
 *   node test/bench/calibration.js [--preset default] [--repeats 10] [--flags="--server round"] [--groups 1:1,1024:16] [--dirs A,B,…]
 *
 * --groups picks the rows printed first (the two the issue names); every
 * group is counted in the total. --dirs reads results directories of
 * earlier sweeps instead of running new ones. Beside each count, the same
 * count for each group's own Student-t interval over the same runs (no
 * moderation across groups), for comparison.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import { groupRows, pairedLogRatios, ratioInterval } from '../../lib/stats/ratios.js';
import { readResultsDir } from '../../lib/results/reader.js';

const BIN = fileURLToPath(new URL('../../bin/udsvstcp.js', import.meta.url));
const run = promisify(execFile);

const { values } = parseArgs({
  options: {
    preset: { type: 'string', default: 'default' },
    repeats: { type: 'string', default: '10' },
    flags: { type: 'string', default: '' },
    groups: { type: 'string', default: '1:1,1024:16' },
    dirs: { type: 'string' },
  },
});

/**
 * @typedef {object} Interval one group's UDS/TCP interval in one sweep, and its own (unmoderated) one over the same runs
 * @property {number} mean
 * @property {number} low
 * @property {number} high
 * @property {number} half
 * @property {number} n
 * @property {number | null} [ownLow]
 * @property {number | null} [ownHigh]
 * @property {number | null} [ownHalf]
 */

/** @param {number[]} x */
const median = (x) => { const s = [...x].sort((a, b) => a - b); return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2; };

/**
 * The UDS/TCP intervals of the primary figure of one sweep, by "size:depth".
 * @param {string} dir
 * @returns {Promise<Map<string, Interval>>}
 */
async function intervals(dir) {
  /** @type {Record<string, string>[]} */
  const summary = parse(await readFile(join(dir, 'summary.csv'), 'utf8'), { columns: true });
  const meta = JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8'));
  const primary = meta.design?.primary ?? 'msgs_per_s';
  const out = new Map();
  for (const r of summary) {
    if (r.transport !== 'uds/tcp' || r.metric !== primary || r.ci95_low === '') continue;
    out.set(`${r.size_bytes}:${r.depth}`, { mean: Number(r.mean), low: Number(r.ci95_low), high: Number(r.ci95_high), half: Number(r.ci95_half_width_pct), n: Number(r.n) });
  }
  // each group's own Student-t interval over the same runs, for comparison
  for (const g of groupRows(readResultsDir(dir).trials.filter((r) => r.status === 'ok'))) {
    const logs = pairedLogRatios(g.rows, primary);
    const r = out.get(`${g.size_bytes}:${g.depth}`);
    if (!r || logs.length === 0) continue;
    const own = ratioInterval(logs);
    Object.assign(r, { ownLow: own.low, ownHigh: own.high, ownHalf: own.halfWidth === null ? null : own.halfWidth * 100 });
  }
  return out;
}

const scratch = values.dirs ? null : await mkdtemp(join(tmpdir(), 'udsvstcp-calibration-'));
try {
  /** @type {Map<string, Interval>[]} */
  const sweeps = [];
  if (values.dirs) {
    for (const dir of values.dirs.split(',')) sweeps.push(await intervals(dir));
  } else {
    const repeats = Number(values.repeats);
    process.stderr.write(`calibration: node ${process.version}, ${repeats} sweeps of preset ${values.preset} ${values.flags}\n`);
    for (let i = 0; i < repeats; i++) {
      const out = join(/** @type {string} */ (scratch), `sweep-${i}`);
      const t0 = performance.now();
      await run(process.execPath, [BIN, 'sweep', values.preset, ...values.flags.split(' ').filter(Boolean), '--quiet', '--out', out], { timeout: 1_800_000 });
      sweeps.push(await intervals(out));
      const halves = [...sweeps[i].values()].map((r) => r.half);
      process.stderr.write(`  sweep ${i}: ${((performance.now() - t0) / 1000).toFixed(1)} s, median half-width ±${median(halves).toFixed(1)} %, widest ±${Math.max(...halves).toFixed(1)} %\n`);
    }
  }
  const keys = [...new Set(sweeps.flatMap((s) => [...s.keys()]))];
  const first = values.groups.split(',').filter((k) => keys.includes(k));
  const ordered = [...first, ...keys.filter((k) => !first.includes(k)).sort((a, b) => {
    const [sa, da] = a.split(':').map(Number);
    const [sb, db] = b.split(':').map(Number);
    return da - db || sa - sb;
  })];
  const lines = ['| group (size B : depth) | sweeps | median ratio | CIs holding the median | median CI half-width | runs (median) | unmoderated CIs holding it | their median half-width |', '|---|---:|---:|---:|---:|---:|---:|---:|'];
  let held = 0;
  let heldOwn = 0;
  let total = 0;
  /** @type {number[]} */
  const allHalves = [];
  /** @type {number[]} */
  const allOwnHalves = [];
  for (const key of ordered) {
    const rs = sweeps.map((s) => s.get(key)).filter((r) => r !== undefined);
    const m = median(rs.map((r) => r.mean));
    const h = rs.filter((r) => r.low <= m && m <= r.high).length;
    const own = rs.filter((r) => r.ownLow != null && r.ownHigh != null && r.ownLow <= m && m <= r.ownHigh).length;
    held += h;
    heldOwn += own;
    total += rs.length;
    const ownHalves = rs.map((r) => r.ownHalf).filter((v) => typeof v === 'number');
    lines.push(`| ${key} | ${rs.length} | ${m.toFixed(3)} | ${h} of ${rs.length} | ±${median(rs.map((r) => r.half)).toFixed(1)} % | ${median(rs.map((r) => r.n))} | ${own} of ${rs.length} | ${ownHalves.length ? `±${median(ownHalves).toFixed(1)} %` : '-'} |`);
    allHalves.push(...rs.map((r) => r.half));
    allOwnHalves.push(...ownHalves);
  }
  lines.push(`| all groups | ${sweeps.length} | | ${held} of ${total} (${((100 * held) / total).toFixed(0)} %) | ±${median(allHalves).toFixed(1)} % | | ${heldOwn} of ${total} (${((100 * heldOwn) / total).toFixed(0)} %) | ±${median(allOwnHalves).toFixed(1)} % |`);
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  if (scratch) await rm(scratch, { recursive: true, force: true });
}
