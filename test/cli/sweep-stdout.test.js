/**
 * What a script gets from `sweep` on stdout: the results directory alone on a
 * line (also with --quiet), or with --json the summary as one JSON document;
 * --no-progress drops the per-trial lines but keeps the summary. Two sweeps:
 * one --quiet, one --json --no-progress into a relative --out.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMain, makeTempDir, runCli } from '../helpers/cli.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
const tiny = ['quick', '--test', '--sizes', '64', '--depths', '1', '--runs', '2', '--seed', '3', '--no-probe'];
/** @type {Awaited<ReturnType<typeof runCli>>} */
let quiet;
/** @type {Awaited<ReturnType<typeof runCli>>} `sweep --json --no-progress --out same`, run in tmp.dir */
let json;
/** @type {Awaited<ReturnType<typeof runCli>>} `report same --json` after it */
let report;
beforeAll(async () => {
  tmp = await makeTempDir();
  quiet = await runCli(['sweep', ...tiny, '--quiet', '--out', join(tmp.dir, 'quiet')]);
  json = await runCli(['sweep', ...tiny, '--json', '--no-progress', '--out', 'same'], { cwd: tmp.dir });
  report = await runCli(['report', 'same', '--json', '--quiet'], { cwd: tmp.dir });
}, 90_000);
afterAll(() => tmp.remove());

describe('sweep output for scripts', () => {
  it('--quiet: stdout is the results directory alone, stderr holds no progress or summary', async () => {
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).toBe(`${join(tmp.dir, 'quiet')}\n`);
    // errors and warnings only (a wide interval, a lane's conditions), never a progress line, summary or verdict
    for (const line of quiet.stderr.split('\n').filter(Boolean)) expect(line).toMatch(/^(warning|error): /);
  });

  it('--quiet and --no-progress still say why each failed trial failed, and --quiet the warnings (they said nothing but "2 failed")', async () => {
    const spec = join(tmp.dir, 'failing.json');
    await writeFile(spec, JSON.stringify({ sizes: [64], runs: 1, packets: 20, warmup: 0, timeout: '20ms', serverDelay: '200ms' }));
    for (const flag of ['--quiet', '--no-progress']) {
      const { code, stderr } = await callMain(['sweep', spec, '--no-probe', '--no-report', flag, '--out', join(tmp.dir, `failing${flag}`)]);
      expect(code, stderr).toBe(1);
      // the lane's own cause: no echo within 20 ms, or on a loaded machine no connection within it
      expect(stderr, flag).toMatch(/^error: run 0 #\d 64 B depth 1 (tcp\+uds|uds\+tcp): (no echo|could not connect to (tcp|uds) \S+ within 20 ms)/m);
      if (flag === '--quiet') for (const line of stderr.split('\n').filter(Boolean)) expect(line).toMatch(/^(warning|error): /);
    }
  });

  it('--json: stdout is one JSON document with the summary rows of summary.csv and the directory', async () => {
    expect(json.code, json.stderr).toBe(0);
    const out = join(tmp.dir, 'same');
    const doc = JSON.parse(json.stdout);
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
    expect(json.code, json.stderr).toBe(0);
    expect(report.code, report.stderr).toBe(0);
    const [fromSweep, fromReport] = [JSON.parse(json.stdout), JSON.parse(report.stdout)];
    expect(fromSweep.dir).toBe(join(tmp.dir, 'same'));
    expect(fromSweep.summary.length).toBeGreaterThan(0);
    expect(fromSweep).toEqual(fromReport); // every figure, interval and warning to the digit
    expect(json.stdout).toBe(report.stdout);
  });

  it('--no-progress: no per-trial lines, the summary still on stderr', async () => {
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).not.toMatch(/\[1\/\d+\]/);
    expect(json.stderr).toContain('UDS/TCP msgs/s');
  });
});
