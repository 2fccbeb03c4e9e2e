import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError, compare, report } from 'udsvstcp';
import { ENVIRONMENT, okRow, writeResults } from '../helpers/results-fixture.js';
import { useTempDir } from '../helpers/temp.js';

const tmp = useTempDir({ each: true });

/**
 * A results directory of two runs at 64 B, depth 1, UDS `factor` × TCP.
 * @param {string} name
 * @param {number} factor
 */
async function results(name, factor) {
  const dir = join(tmp.dir, name);
  await mkdir(dir);
  const rows = [0, 1, 2].flatMap((run) => [okRow(run, 'tcp', 64, 1, 10000 + run * 100), okRow(run, 'uds', 64, 1, (10000 + run * 100) * factor)]);
  await writeResults(dir, rows, { status: 'complete', trials_planned: rows.length, environment: ENVIRONMENT, spec: { preset: name } });
  return dir;
}

describe("report() and compare() through the package's exports", () => {
  it('report() writes the report files and returns the document', async () => {
    const dir = await results('a', 1.5);
    const document = await report(dir);
    expect(document).toMatchObject({ dir, status: 'complete', trials: { recorded: 6, failed: 0 }, primary: { metric: 'msgs_per_s' } });
    expect(document.sections[0].sizes[0].figures.msgs_per_s.ratio.value).toBeCloseTo(1.5, 6);
    expect(await readdir(dir)).toEqual(expect.arrayContaining(['summary.md', 'report.html', 'results.xlsx']));
    await expect(report(dir, { figure: 'no_such_figure' })).rejects.toThrow(UsageError);
  }, 30_000);

  it('compare() returns B/A of each figure for the groups both hold', async () => {
    const a = await results('a', 1.5);
    const b = await results('b', 1.2);
    const document = await compare(a, b);
    expect(document).toMatchObject({ a, b, only_a: [], only_b: [] });
    const ratio = document.rows.find((/** @type {any} */ r) => r.metric === 'msgs_per_s' && r.transport === 'uds/tcp');
    expect(ratio.ratio).toBeCloseTo(1.2 / 1.5, 6);
    await expect(compare(a, join(tmp.dir, 'none'))).rejects.toThrow(UsageError);
  });
});
