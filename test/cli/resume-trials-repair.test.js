import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { toCsvHeader } from '../../lib/results/csv.js';
import { inspectTrialLog } from '../../lib/results/recovery.js';
import { trialColumns } from '../../lib/results/writer.js';
import { callMain } from '../helpers/cli.js';
import { callMainLeavingNothing } from '../helpers/in-process.js';
import { keyOf, readMetaJson, readTrialRows, writeTinySpec } from '../helpers/sweeps.js';
import { copyResultsDir, useTempDir } from '../helpers/temp.js';

/** trials.csv's columns of an echo sweep */
const TRIAL_COLUMNS = trialColumns('echo');

const tmp = useTempDir();
/** @type {string} */
let base;
/** @type {string} the complete trials.csv of the base sweep: a header and 4 rows */
let original;
// 2 trials of 2 rows (tcp and uds): each repair below leaves one trial, or a part of one, to measure again
beforeAll(async () => {
  base = join(tmp.dir, 'base');
  const { code, stderr } = await callMainLeavingNothing(['sweep', await writeTinySpec(tmp.dir, { sizes: [1] }), '--test', '--no-probe', '--no-report', '--out', base, '--quiet']);
  expect(code, stderr).toBe(0);
  original = await readFile(join(base, 'trials.csv'), 'utf8');
}, 60_000);

/**
 * A copy of the base sweep with trials.csv replaced.
 * @param {string} name
 * @param {(text: string) => string} edit
 */
async function damaged(name, edit) {
  const dir = await copyResultsDir(base, tmp.dir, name);
  await writeFile(join(dir, 'trials.csv'), edit(original));
  return dir;
}

const lines = () => original.trimEnd().split('\n');

/** --resume DIR, in this process (its server and trials are child processes all the same), without the report files: what is checked here is trials.csv, blocks.csv and meta.json */
const resume = (/** @type {string} */ dir) => callMainLeavingNothing(['sweep', '--resume', dir, '--no-probe', '--no-report']);

describe('--resume repairs a trials.csv left by a sweep that stopped mid-write', () => {
  it('cuts a last row cut short back to the complete rows, says so, and measures that trial again', async () => {
    const dir = await damaged('cut', (text) => text.slice(0, -40));
    const { code, stderr } = await resume(dir);
    expect(code, stderr).toBe(0);
    // the cut row is the second of its trial's two rows: the first goes too, and the trial is measured again
    expect(stderr).toMatch(new RegExp(`trials\\.csv line 5 was cut back with the 1 row\\(s\\) of the same trial before it: \\d+ cells where there are ${TRIAL_COLUMNS.length} columns .*the 2 complete rows before it are kept`));
    const text = await readFile(join(dir, 'trials.csv'), 'utf8');
    expect(text.startsWith(lines().slice(0, 3).join('\n') + '\n')).toBe(true); // header and 2 rows, byte for byte
    const rows = await readTrialRows(dir);
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map(keyOf)).size).toBe(4);
    const last = lines()[4];
    expect((await readMetaJson(dir)).recoveries).toEqual([expect.objectContaining({ file: 'trials.csv', line: 4, removed: `${lines()[3]}\n${last.slice(0, last.length - 39)}` })]);
  });

  it('cuts a garbled last row', async () => {
    const dir = await damaged('garbled', () => `${lines().slice(0, 4).join('\n')}\n\u0000\u0001#garbage,"unterminated\n`);
    const { code, stderr } = await resume(dir);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/trials\.csv line 5 was cut back with the 1 row\(s\) of the same trial before it: not valid CSV/);
    const rows = await readTrialRows(dir);
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map(keyOf)).size).toBe(4);
  });

  it('adds a missing final newline before appending, so the next resume still reads the file', async () => {
    const dir = await damaged('no-newline', () => `${lines().slice(0, 3).join('\n')}`); // 1 whole trial, no final newline
    const first = await resume(dir);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('trials.csv had no final newline; added one before appending');
    const cells = parse(await readFile(join(dir, 'trials.csv'), 'utf8'));
    expect(cells).toHaveLength(5);
    for (const row of cells) expect(row).toHaveLength(TRIAL_COLUMNS.length);
    const second = await resume(dir);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('4 trial rows recorded (4 planned)');
  });

  it('cuts back the rows of a trial whose other rows were never written, and measures it again', async () => {
    const dir = await damaged('orphan', () => `${lines().slice(0, 4).join('\n')}\n`); // trial 2 has one of its two rows
    const { code, stderr } = await resume(dir);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain("trials.csv line 4: the last trial's rows were not all written (a sweep stopped mid-write); its 1 row(s) were cut back, and that trial is measured again");
    const rows = await readTrialRows(dir);
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map(keyOf)).size).toBe(4);
  });

  it('cuts blocks.csv back the same way when its last row was cut short', async () => {
    const dir = await damaged('blocks', (text) => text);
    const blocks = await readFile(join(dir, 'blocks.csv'), 'utf8');
    await writeFile(join(dir, 'blocks.csv'), blocks.slice(0, -20));
    const { code, stderr } = await resume(dir);
    expect(code, stderr).toBe(0);
    const lineCount = blocks.trimEnd().split('\n').length;
    expect(stderr).toContain(`blocks.csv line ${lineCount} was cut back`);
    const rows = parse(await readFile(join(dir, 'blocks.csv'), 'utf8'), { columns: true });
    expect(rows).toHaveLength(lineCount - 2); // the header and the cut row are not rows
    expect((await readMetaJson(dir)).recoveries).toEqual([expect.objectContaining({ file: 'blocks.csv', line: lineCount })]);
  });

  it('refuses damage before the last row: exit 2 naming file and line, nothing changed', async () => {
    const dir = await damaged('middle', () => [...lines().slice(0, 3), 'garbage', ...lines().slice(4)].join('\n') + '\n');
    const before = await readFile(join(dir, 'trials.csv'), 'utf8');
    const metaBefore = await readFile(join(dir, 'meta.json'), 'utf8');
    const filesBefore = (await readdir(dir)).sort();
    const { code, stdout, stderr } = await callMain(['sweep', '--resume', dir]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toContain(`${join(dir, 'trials.csv')} line 4: 1 cells where there are ${TRIAL_COLUMNS.length} columns; only a damaged last row can be cut back automatically`);
    expect(await readFile(join(dir, 'trials.csv'), 'utf8')).toBe(before);
    expect(await readFile(join(dir, 'meta.json'), 'utf8')).toBe(metaBefore);
    expect((await readdir(dir)).sort()).toEqual(filesBefore);
  });
});

describe('inspectTrialLog', () => {
  const header = toCsvHeader(TRIAL_COLUMNS);
  const inspect = (/** @type {string} */ text) => inspectTrialLog(Buffer.from(text), { columns: TRIAL_COLUMNS, file: 'trials.csv' });

  it('takes an empty file, or one cut inside its header, as needing the header', () => {
    expect(inspect('')).toMatchObject({ needsHeader: true, keepBytes: 0, rows: [] });
    expect(inspect(header.slice(0, 30))).toMatchObject({ needsHeader: true, keepBytes: 0, cut: { line: 1 } });
  });

  it('refuses a header of other columns, naming line 1', () => {
    expect(() => inspect('a,b,c\n1,2,3\n')).toThrow(/^trials\.csv line 1: the columns are not those of this udsvstcp version/);
  });
});
