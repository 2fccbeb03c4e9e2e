import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { trialColumns } from '../../lib/results/writer.js';
import { callMain, makeTempDir } from '../helpers/cli.js';
import { callMainLeavingNothing } from '../helpers/in-process.js';
import { copyResultsDir } from '../helpers/temp.js';
import { keyOf, readMetaJson, readTrialRows, writeTinySpec } from '../helpers/sweeps.js';

/** trials.csv's columns of an echo sweep */
const TRIAL_COLUMNS = trialColumns('echo');

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => tmp.remove());

/** @type {{ dir: string, remove: () => Promise<void> }} */
let shared;
/** a complete tiny sweep (main() in this process, as every sweep here: its server and trials are child processes all the same), made once and copied for each test; its report files are not needed (--resume --retry-failed below writes them) */
let complete = '';
beforeAll(async () => {
  shared = await makeTempDir();
  complete = join(shared.dir, 'out');
  const { code, stderr } = await callMainLeavingNothing(['sweep', await writeTinySpec(shared.dir), '--test', '--no-probe', '--no-report', '--out', complete, '--quiet']);
  expect(code, stderr).toBe(0);
}, 60_000);
afterAll(() => shared.remove());

/**
 * A complete sweep of 4 paired trials (8 rows) in which the first and the last
 * trial (rows 1–2 and 7–8, both transports of each) are made failed trials.
 * @returns {Promise<{ out: string, lines: string[] }>}
 */
async function sweepWithFailures() {
  const out = await copyResultsDir(complete, tmp.dir, 'out');
  const lines = (await readFile(join(out, 'trials.csv'), 'utf8')).trimEnd().split('\n');
  for (const at of [1, 2, 7, 8]) {
    const cells = parse(lines[at])[0];
    cells[TRIAL_COLUMNS.indexOf('status')] = 'error';
    cells[TRIAL_COLUMNS.indexOf('error')] = 'trial process killed by SIGKILL before reporting';
    lines[at] = stringify([cells]).trimEnd();
  }
  await writeFile(join(out, 'trials.csv'), `${lines.join('\n')}\n`);
  return { out, lines };
}

describe('--retry-failed measures failed trials again, keeping their old rows marked superseded', () => {
  it('without it, --resume keeps failed trials as they are and says how to retry them', async () => {
    const { out, lines } = await sweepWithFailures();
    const { code, stderr } = await callMainLeavingNothing(['sweep', '--resume', out, '--no-probe', '--no-report']);
    expect(code).toBe(1);
    expect(stderr).toContain('note: 2 trial(s) recorded as failed are kept as they are; --retry-failed measures them again');
    expect(await readFile(join(out, 'trials.csv'), 'utf8')).toBe(`${lines.join('\n')}\n`);
  });

  it('with it, the old rows stay (status superseded, error kept), new rows are appended, and the summary counts only live rows', async () => {
    const { out, lines } = await sweepWithFailures();
    const { code, stderr } = await callMainLeavingNothing(['sweep', '--resume', out, '--retry-failed', '--no-probe']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('--retry-failed: 4 failed trial row(s) marked superseded (kept in trials.csv); their trials are measured again');
    const text = (await readFile(join(out, 'trials.csv'), 'utf8')).trimEnd().split('\n');
    expect(text).toHaveLength(13);
    for (const at of [0, 3, 4, 5, 6]) expect(text[at]).toBe(lines[at]); // every other row byte for byte
    const rows = await readTrialRows(out);
    const old = [rows[0], rows[1], rows[6], rows[7]];
    for (const row of old) expect(row).toMatchObject({ status: 'superseded', error: 'trial process killed by SIGKILL before reporting' });
    expect(rows.slice(8).map(keyOf).sort()).toEqual(old.map(keyOf).sort());
    for (const row of rows.slice(8)) expect(row.status).toBe('ok');

    /** @type {Record<string, string>[]} */
    const summary = parse(await readFile(join(out, 'summary.csv'), 'utf8'), { columns: true });
    for (const row of summary.filter((r) => r.metric === 'msgs_per_s')) expect(row.n).toBe('2');
    const wide = (await readFile(join(out, 'runs-wide.csv'), 'utf8')).trimEnd().split('\n').slice(1);
    for (const line of wide) expect(line.split(',').slice(1).every((cell) => Number(cell) > 0)).toBe(true);
    // the report (written by this resume) counts live rows too: superseded rows are neither trials nor failures
    expect(await readFile(join(out, 'summary.md'), 'utf8')).toContain('8 trial rows of 8 planned, 8 ok, 0 failed');
    expect(await readMetaJson(out)).toMatchObject({ status: 'complete', trials_recorded: 8, trials_failed: 0, trials_superseded: 4, sessions: [expect.anything(), expect.objectContaining({ retry_failed: true })] });
  });

  it('is refused without --resume', async () => {
    const { code, stderr } = await callMain(['sweep', 'quick', '--retry-failed']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^udsvstcp: error: --retry-failed needs --resume DIR/);
  });
});
