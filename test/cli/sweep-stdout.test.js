/**
 * What a script gets from `sweep` on stdout: the results directory alone on a
 * line (also with --quiet), or with --json the summary as one JSON document;
 * --no-progress drops the per-trial lines but keeps the summary.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, runCli } from '../helpers/cli.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => { tmp = await makeTempDir(); });
afterAll(() => tmp.remove());

const tiny = ['quick', '--test', '--sizes', '64', '--depths', '1', '--runs', '2', '--seed', '3'];

describe('sweep output for scripts', () => {
  it('--quiet: stdout is the results directory alone, stderr holds no progress or summary', async () => {
    const out = join(tmp.dir, 'quiet');
    const r = await runCli(['sweep', ...tiny, '--quiet', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${out}\n`);
    expect(r.stderr).not.toMatch(/UDS\/TCP|\[1\/\d+\]/);
  });

  it('--json: stdout is one JSON document with the summary rows of summary.csv and the directory', async () => {
    const out = join(tmp.dir, 'json');
    const r = await runCli(['sweep', ...tiny, '--json', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.dir).toBe(out);
    expect(doc.status).toBe('complete');
    const csv = /** @type {Record<string, any>[]} */ (parse(await readFile(join(out, 'summary.csv'), 'utf8'), { columns: true, cast: true }));
    expect(doc.summary).toHaveLength(csv.length);
    const ratio = doc.summary.find((/** @type {any} */ s) => s.transport === 'uds/tcp' && s.metric === 'msgs_per_s');
    const ratioCsv = /** @type {Record<string, any>} */ (csv.find((/** @type {any} */ s) => s.transport === 'uds/tcp' && s.metric === 'msgs_per_s'));
    expect(ratio.n).toBe(2);
    expect(ratio.mean).toBeCloseTo(Number(ratioCsv.mean), 6);
    expect(doc.files).toContain(join(out, 'report.html'));
  });

  it('--json is the same document as `report --json` on the directory it wrote, given as the same relative path', async () => {
    const r = await runCli(['sweep', ...tiny, '--json', '--no-probe', '--quiet', '--out', 'same'], { cwd: tmp.dir });
    expect(r.code, r.stderr).toBe(0);
    const report = await runCli(['report', 'same', '--json', '--quiet'], { cwd: tmp.dir });
    expect(report.code, report.stderr).toBe(0);
    const [fromSweep, fromReport] = [JSON.parse(r.stdout), JSON.parse(report.stdout)];
    expect(fromSweep.dir).toBe(join(tmp.dir, 'same'));
    expect(fromSweep.summary.length).toBeGreaterThan(0);
    expect(fromSweep).toEqual(fromReport); // every figure, interval and warning to the digit
    expect(r.stdout).toBe(report.stdout);
  });

  it('--no-progress: no per-trial lines, the summary still on stderr', async () => {
    const out = join(tmp.dir, 'noprogress');
    const r = await runCli(['sweep', ...tiny, '--no-progress', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${out}\n`);
    expect(r.stderr).not.toMatch(/\[1\/\d+\]/);
    expect(r.stderr).toContain('UDS/TCP msgs/s');
  });
});
