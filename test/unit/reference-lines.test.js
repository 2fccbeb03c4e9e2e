/**
 * The line a sweep prints per C-reference group (redis-benchmark): each
 * transport's median rps, and its ratio to TCP's with a 95 % interval paired
 * by run. Hand-made rows; and reference.csv read from a hand-made results
 * directory into the report's findings.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeReference } from '../../lib/report/table.js';
import { buildFindings } from '../../lib/report/findings.js';
import { toMarkdown } from '../../lib/report/report-text.js';
import { readResultsDir } from '../../lib/results/reader.js';
import { makeTempDir } from '../helpers/cli.js';
import { okRow, writeResults } from '../helpers/results-fixture.js';
import { readSchemaFixture } from '../helpers/schema.js';
import { ratioInterval } from '../../lib/stats/ratios.js';

/** @param {number} run @param {string} transport @param {number} rps */
const row = (run, transport, rps, status = 'ok') => ({ run, client: 'redis-benchmark', transport, size_bytes: 16, depth: 1, test: 'SET', rps, status });

describe('redis-benchmark lines', () => {
  it('give the medians, and the geometric mean of the ratios paired by run with its interval', () => {
    const tcp = [1000, 1100, 900];
    const uds = [1300, 1320, 1260];
    const [line] = describeReference(tcp.flatMap((x, run) => [row(run, 'tcp', x), row(run, 'uds', uds[run])]));
    const ci = ratioInterval(uds.map((x, run) => Math.log(x / tcp[run])));
    expect(line).toBe(`redis-benchmark 16 B in flight 1 SET: tcp 1.0k rps, uds 1.3k rps (×${ci.mean.toFixed(2)}, 95 % CI ${ci.low?.toFixed(2)}–${ci.high?.toFixed(2)}) (median of 3 runs)`);
  });

  it('pair only the runs both transports measured; with one such run, the medians\' ratio and no interval', () => {
    const rows = [row(0, 'tcp', 1000), row(0, 'uds', 1500), row(1, 'tcp', 1000, 'error'), row(1, 'uds', 1400)];
    expect(describeReference(rows)).toEqual(['redis-benchmark 16 B in flight 1 SET: tcp 1.0k rps, uds 1.4k rps (×1.45) (median of 2 runs)']);
  });
});

describe('redis-benchmark lines of a --node sweep', () => {
  it('count each version\'s runs, paired within the version', () => {
    const rows = ['v20.20.2', 'v26.10.0'].flatMap((node, k) => [0, 1].flatMap((run) => [
      { ...row(run, 'tcp', 1000 + 100 * k), node_version: node }, { ...row(run, 'uds', 1500 + 100 * k), node_version: node },
    ]));
    const ci = ratioInterval([1500 / 1000, 1500 / 1000, 1600 / 1100, 1600 / 1100].map(Math.log));
    expect(describeReference(rows)).toEqual([`redis-benchmark 16 B in flight 1 SET: tcp 1.1k rps, uds 1.6k rps (×${ci.mean.toFixed(2)}, 95 % CI ${ci.low?.toFixed(2)}–${ci.high?.toFixed(2)}) (median of 4 runs)`]);
  });
});

describe("reference.csv in a results directory's report", () => {
  const header = readSchemaFixture('redis/reference.csv').trim();
  /** @param {number} run @param {string} transport @param {number} rps */
  const line = (run, transport, rps) => `${run},v20.20.2,redis-benchmark,${transport},16,1,SET,1000,${rps},90,80,200,ok,`;
  /** @type {{ dir: string, remove: () => Promise<void> }} */
  let tmp;
  beforeAll(async () => {
    tmp = await makeTempDir();
  });
  afterAll(() => tmp.remove());

  /** A results directory of two echo runs and the given reference.csv text (none: undefined). @param {string} name @param {string} [text] */
  async function results(name, text) {
    const dir = join(tmp.dir, name);
    await mkdir(dir);
    await writeResults(dir, [okRow(0, 'tcp', 64, 1, 1000), okRow(0, 'uds', 64, 1, 1500), okRow(1, 'tcp', 64, 1, 1100), okRow(1, 'uds', 64, 1, 1600)]);
    if (text !== undefined) await writeFile(join(dir, 'reference.csv'), text);
    return readResultsDir(dir);
  }

  it('are read by column name, and the findings and summary.md give their lines', async () => {
    const read = await results('whole', [header, line(0, 'tcp', 1000), line(0, 'uds', 1500), line(1, 'tcp', 1100), line(1, 'uds', 1400), ''].join('\n'));
    expect(read.reference).toHaveLength(4);
    expect(read.reference[1]).toMatchObject({ run: '0', client: 'redis-benchmark', transport: 'uds', rps: '1500', status: 'ok', error: '' });
    const findings = buildFindings(read);
    expect(findings.reference).toEqual(describeReference(read.reference));
    expect(findings.reference).toHaveLength(1);
    expect(toMarkdown(findings)).toContain(`## Reference client\n\n- ${findings.reference[0]}\n`);
  });

  it('none without the file, and no section', async () => {
    const read = await results('none');
    expect(read.reference).toEqual([]);
    expect(toMarkdown(buildFindings(read))).not.toContain('Reference client');
  });

  it('a torn last line is left out with a note; a file that is not CSV is a note, and the report of the trials is made', async () => {
    const torn = await results('torn', [header, line(0, 'tcp', 1000), line(0, 'uds', 1500), '1,v20.20.2,redis-bench'].join('\n'));
    expect(torn.reference).toHaveLength(2);
    expect(torn.notes).toEqual(['the last line of reference.csv is incomplete (a sweep stopped while writing it?) and was left out']);
    const broken = await results('broken', `${header}\n0,"open quote\n1,2\n3,"x"y\n`);
    expect(broken.reference).toEqual([]);
    expect(broken.notes).toHaveLength(1);
    expect(broken.notes[0]).toMatch(/^reference\.csv is not valid CSV \(.+\): the reference client's figures are left out$/);
    const findings = buildFindings(broken);
    expect(findings.sections).toHaveLength(1);
    expect(findings.warnings).toContain(broken.notes[0]);
  });
});
