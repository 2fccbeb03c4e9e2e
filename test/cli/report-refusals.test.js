import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { getWorkload } from '../../lib/workloads/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMain, expectOneLineUsageError, makeTempDir } from '../helpers/cli.js';
import { copyResults, editMetaJson, editTrialsCsv, okRow, snapshotFiles, sweepMeta, writeResults } from '../helpers/results-fixture.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
/** a results directory as a sweep leaves it, report files included: 1 group × 2 runs × TCP and UDS, made by hand */
let base = '';

beforeAll(async () => {
  tmp = await makeTempDir();
  base = join(tmp.dir, 'base');
  await mkdir(base);
  const rows = [okRow(0, 'tcp', 64, 1, 10000), okRow(0, 'uds', 64, 1, 13000), okRow(1, 'tcp', 64, 1, 10400), okRow(1, 'uds', 64, 1, 13900)];
  await writeResults(base, rows.map((row) => ({ ...row, node_version: process.version })), sweepMeta({ sizes: [64], depths: [1], runs: 2 }));
  const report = await callMain(['report', base, '--quiet']);
  expect(report.code, report.stderr).toBe(0);
}, 60_000);
afterAll(() => tmp.remove());

/**
 * A copy of the real sweep with trials.csv or meta.json edited.
 * @param {string} name
 * @param {{ trials?: (records: string[][]) => string[][], meta?: (meta: Record<string, any>) => void }} edits
 */
async function variant(name, { trials, meta }) {
  const dir = await copyResults(base, join(tmp.dir, name));
  if (trials) await editTrialsCsv(dir, trials);
  if (meta) await editMetaJson(dir, meta);
  return dir;
}

/**
 * Set one cell: line as in the file (the header is line 1), column by name.
 * @param {string} line
 * @param {string} column
 * @param {string} value
 * @returns {(records: string[][]) => string[][]}
 */
const setCell = (line, column, value) => (records) => {
  records[Number(line) - 1][records[0].indexOf(column)] = value;
  return records;
};

/** @param {string[][]} records @param {string} column 1-based index of a column */
const col = (records, column) => records[0].indexOf(column) + 1;

/**
 * `report DIR` exits 2 with one line, and every file in DIR (report.html,
 * summary.md, results.xlsx, the charts …) keeps its bytes and its time.
 * @param {string} dir
 * @param {string | RegExp} message
 * @param {string[]} [args]
 */
async function expectReportRefused(dir, message, args = []) {
  const before = await snapshotFiles(dir);
  expect(Object.keys(before)).toEqual(expect.arrayContaining(['report.html', 'summary.md', 'results.xlsx']));
  const result = await callMain(['report', dir, ...args]);
  expectOneLineUsageError(result, message);
  expect(await snapshotFiles(dir)).toEqual(before);
}

/**
 * `compare A B` exits 2 with the same one line.
 * @param {string} a
 * @param {string} b
 * @param {string | RegExp} message
 * @param {string[]} [args]
 */
async function expectCompareRefused(a, b, message, args = []) {
  const result = await callMain(['compare', a, b, ...args]);
  expectOneLineUsageError(result, message);
}

/** @param {string} text */
const exactly = (text) => new RegExp(`^udsvstcp: error: ${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n$`);

describe('report and compare refuse input they cannot read right, naming file, line and column, and overwrite nothing', () => {
  it('--figure that is no figure, even a name every object has', async () => {
    await Promise.all([
      // the figures of the directory's workload only, not every workload's
      expectReportRefused(base, exactly(`--figure constructor: not a figure; echo's figures: ${Object.keys(getWorkload('echo').summary).join(', ')}`), ['--figure', 'constructor']),
      expectCompareRefused(base, base, exactly(`--figure __proto__: not a figure; echo's figures: ${Object.keys(getWorkload('echo').summary).join(', ')}`), ['--figure', '__proto__']),
    ]);
  }, 60_000);

  it('--figure of another workload than the directory\'s', async () => {
    await Promise.all([
      expectReportRefused(base, exactly(`--figure gb_per_s: a figure of stream, not of echo, the workload of ${base}; echo's figures: ${Object.keys(getWorkload('echo').summary).join(', ')}`), ['--figure', 'gb_per_s']),
      expectCompareRefused(base, base, /^udsvstcp: error: --figure req_per_s: a figure of http, proxy, not of echo, the workload of /, ['--figure', 'req_per_s']),
    ]);
  }, 60_000);

  it('two rows for one (run, group, transport), which would pair a run\'s transports at random', async () => {
    let run = '';
    let transport = '';
    const dir = await variant('duplicate-row', {
      trials: (records) => {
        const first = records[1];
        run = first[records[0].indexOf('run')];
        transport = first[records[0].indexOf('transport')].toUpperCase();
        const copy = [...first];
        copy[records[0].indexOf('msgs_per_s')] = String(Number(first[records[0].indexOf('msgs_per_s')]) * 2);
        return [...records, copy];
      },
    });
    await expectReportRefused(dir, exactly(`${join(dir, 'trials.csv')}: line 6, columns run, workload, node_version, size_bytes, depth, transport: a second row for run ${run} of echo 64 B depth 1 on Node ${process.version} over ${transport} (the first is line 2); a run has one row per transport, so its transports pair without doubt`));
  }, 60_000);

  it('a node_version that is no Node version', async () => {
    const dir = await variant('bad-node-version', { trials: setCell('3', 'node_version', 'twenty') });
    await expectReportRefused(dir, exactly(`${join(dir, 'trials.csv')}: line 3, column 4 (node_version): "twenty" is not a Node version such as v20.20.2`));
  }, 60_000);

  it('a column named twice in the header', async () => {
    let columns = '';
    const dir = await variant('duplicate-column', {
      trials: (records) => {
        columns = `${col(records, 'msgs_per_s')} and ${col(records, 'mb_per_s')}`;
        records[0][records[0].indexOf('mb_per_s')] = 'msgs_per_s';
        return records;
      },
    });
    await expectReportRefused(dir, exactly(`${join(dir, 'trials.csv')}: line 1, columns ${columns} are both named "msgs_per_s"; a trials file names each column once`));
  }, 60_000);

  it('no column for the primary figure while there are ok trials', async () => {
    const dir = await variant('no-primary', {
      trials: (records) => {
        const k = records[0].indexOf('msgs_per_s');
        return records.map((r) => r.filter((_, i) => i !== k));
      },
    });
    await expectReportRefused(dir, exactly(`${join(dir, 'trials.csv')}: line 1: no column msgs_per_s, the primary figure of echo, yet line 2 is an ok echo trial`));
  }, 60_000);

  it('a number too large to be finite (1e400), where compare failed inside its statistics', async () => {
    let column = 0;
    const dir = await variant('infinite', { trials: (records) => { column = col(records, 'msgs_per_s'); return setCell('2', 'msgs_per_s', '1e400')(records); } });
    const message = exactly(`${join(dir, 'trials.csv')}: line 2, column ${column} (msgs_per_s): 1e400 is not a finite number`);
    await Promise.all([expectReportRefused(dir, message), expectCompareRefused(base, dir, message)]);
  }, 60_000);

  it('a rate of zero or below, or a negative cost, in an ok trial', async () => {
    let rate = 0;
    let cpu = 0;
    const zero = await variant('zero-rate', { trials: (records) => { rate = col(records, 'msgs_per_s'); return setCell('3', 'msgs_per_s', '0')(records); } });
    const negative = await variant('negative-rate', { trials: setCell('5', 'msgs_per_s', '-5000') });
    const cost = await variant('negative-cpu', { trials: (records) => { cpu = col(records, 'client_cpu_us_per_msg'); return setCell('4', 'client_cpu_us_per_msg', '-1.5')(records); } });
    await Promise.all([
      expectReportRefused(zero, exactly(`${join(zero, 'trials.csv')}: line 3, column ${rate} (msgs_per_s): 0 in an ok trial; msgs_per_s (msgs/s) must be above 0`)),
      expectReportRefused(negative, exactly(`${join(negative, 'trials.csv')}: line 5, column ${rate} (msgs_per_s): -5000 in an ok trial; msgs_per_s (msgs/s) must be above 0`)),
      expectReportRefused(cost, exactly(`${join(cost, 'trials.csv')}: line 4, column ${cpu} (client_cpu_us_per_msg): -1.5 in an ok trial; client_cpu_us_per_msg (us/msg) must be 0 or more`)),
    ]);
  }, 60_000);

  it('a run number no sweep makes (2e9), without a column per run number up to it', async () => {
    const dir = await variant('huge-run', { trials: setCell('2', 'run', '2000000000') });
    await expectReportRefused(dir, exactly(`${join(dir, 'trials.csv')}: line 2, column 1 (run): 2000000000 is out of range; run numbers of a sweep go from 0 to 999`));
  }, 60_000);

  it('a size or depth beyond the workload\'s bounds', async () => {
    let size = 0;
    let depth = 0;
    const big = await variant('huge-size', { trials: (records) => { size = col(records, 'size_bytes'); return setCell('3', 'size_bytes', String(2 ** 36))(records); } });
    const deep = await variant('huge-depth', { trials: (records) => { depth = col(records, 'depth'); return setCell('2', 'depth', '1000000')(records); } });
    await Promise.all([
      expectReportRefused(big, exactly(`${join(big, 'trials.csv')}: line 3, column ${size} (size_bytes): 68719476736 is out of range; echo packet sizes go from 1 B to 64 MiB`)),
      expectReportRefused(deep, exactly(`${join(deep, 'trials.csv')}: line 2, column ${depth} (depth): 1000000 is out of range; echo depths (packets in flight) go from 1 to 65536`)),
    ]);
  }, 60_000);

  it('a meta.json whose spec plans more runs than a sweep may hold (3e8)', async () => {
    const dir = await variant('huge-spec-runs', { meta: (meta) => { meta.spec.runs = 300_000_000; } });
    await expectReportRefused(dir, exactly(`${join(dir, 'meta.json')}: "spec.runs": 300000000 is out of range; the runs of a sweep go from 1 to 1000`));
  }, 60_000);
});
