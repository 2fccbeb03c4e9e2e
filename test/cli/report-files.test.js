import { mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMain, makeTempDir } from '../helpers/cli.js';
import { okRow, sweepMeta, writeResults } from '../helpers/results-fixture.js';
import { keyPaths, readSchemaFixture } from '../helpers/schema.js';
import { readXlsx } from '../helpers/xlsx.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
/** @type {Awaited<ReturnType<typeof callMain>>} `report DIR` of the hand-made results */
let sweep;
const out = () => join(tmp.dir, 'sweep');
const CHARTS = ['chart-msgs_per_s.svg', 'chart-uds-vs-tcp.svg', 'chart-cpu.svg', 'chart-rtt.svg'];

beforeAll(async () => {
  tmp = await makeTempDir();
  // results as a small sweep leaves them: 2 sizes × 2 depths × 2 transports × 2 runs, UDS ahead by 20–40 %
  await mkdir(out());
  const rows = [];
  for (const run of [0, 1]) {
    for (const depth of [1, 16]) {
      for (const size of [64, 1024]) {
        const tcp = 10000 * depth ** 0.5 * (1 + run / 10) * (size === 64 ? 1 : 0.9);
        rows.push(okRow(run, 'tcp', size, depth, tcp), okRow(run, 'uds', size, depth, tcp * (1.2 + run / 5)));
      }
    }
  }
  await writeResults(out(), rows, sweepMeta({ sizes: [64, 1024], depths: [1, 16], runs: 2 }));
  sweep = await callMain(['report', out()]);
}, 60_000);
afterAll(() => tmp.remove());

/**
 * Every element named `name` in a parsed XML tree, with its attributes.
 * @param {any} node
 * @param {string} name
 * @returns {Record<string, string>[]}
 */
function elements(node, name) {
  if (Array.isArray(node)) return node.flatMap((n) => elements(n, name));
  if (node === null || typeof node !== 'object') return [];
  const found = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === ':@') continue;
    if (key === name) found.push(node[':@'] ?? {});
    found.push(...elements(value, name));
  }
  return found;
}

describe('the report of a results directory (the one a sweep writes at its end)', () => {
  it('prints the verdicts and the report files on stderr', () => {
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(sweep.stderr).toMatch(/^depth 1: .+\.$/m);
    expect(sweep.stderr).toMatch(/^depth 16: .+\.$/m);
    for (const file of [...CHARTS, 'summary.md', 'report.html', 'results.xlsx']) expect(sweep.stderr).toContain(join(out(), file));
  });

  it('draws each chart as well-formed SVG holding both transports\' series', async () => {
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', preserveOrder: true });
    for (const name of CHARTS) {
      const svg = await readFile(join(out(), name), 'utf8');
      expect(XMLValidator.validate(svg), name).toBe(true);
      const tree = parser.parse(svg);
      expect(elements(tree, 'svg'), name).toHaveLength(1);
      const lines = elements(tree, 'path').filter((p) => p['aria-roledescription'] === 'line mark').map((p) => p['aria-label']);
      if (name === 'chart-uds-vs-tcp.svg') {
        // one UDS/TCP line per depth, and the reference line at 1
        expect(lines.some((l) => /depth: 1$/.test(l)) && lines.some((l) => /depth: 16$/.test(l)), name).toBe(true);
        expect(svg).toContain('rule mark container');
      } else {
        expect(lines.filter((l) => l.includes('transport: TCP')).length, name).toBeGreaterThanOrEqual(2);
        expect(lines.filter((l) => l.includes('transport: UDS')).length, name).toBeGreaterThanOrEqual(2);
      }
    }
  });

  it('writes report.html with no network reference, the charts inlined and the environment', async () => {
    const html = await readFile(join(out(), 'report.html'), 'utf8');
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<(script|link|img|iframe)\b/i);
    expect(html.match(/<svg\b/g)).toHaveLength(CHARTS.length);
    expect(html).toContain(`<dt>node</dt><dd>${process.versions.node}</dd>`);
    expect(html).toMatch(/<li class="verdict">depth 1: /);
  });

  it('writes summary.md with a section per depth', async () => {
    const md = await readFile(join(out(), 'summary.md'), 'utf8');
    expect(md).toMatch(/^## depth 1$/m);
    expect(md).toMatch(/^## depth 16$/m);
    expect(md).toContain('| size | TCP msgs/s | UDS msgs/s | UDS/TCP (×) |');
  });

  it('writes results.xlsx whose figures read back as numbers, header row bold and frozen', async () => {
    const workbook = await readXlsx(join(out(), 'results.xlsx'));
    expect(workbook.names).toEqual(['trials', 'summary', 'runs-wide', 'report']);
    const trials = workbook.sheet('trials');
    expect(trials.frozenRows).toBe(1);
    const header = /** @type {string[]} */ (trials.values(1));
    expect(header.every((_, k) => trials.cell(1, k + 1).bold)).toBe(true);
    expect(trials.widths.get(header.indexOf('msgs_per_s') + 1)).toBe('msgs_per_s'.length + 2);
    const csv = (await readFile(join(out(), 'trials.csv'), 'utf8')).trim().split('\n');
    expect(header.join(',')).toBe(csv[0]);
    expect(trials.rowCount).toBe(csv.length);
    const column = header.indexOf('msgs_per_s') + 1;
    for (let r = 2; r <= trials.rowCount; r++) {
      const cell = trials.cell(r, column);
      expect(typeof cell.value).toBe('number');
      expect(cell.value).toBe(Number(csv[r - 1].split(',')[column - 1]));
      expect(cell.numFmt).toBe('#,##0');
      expect(trials.cell(r, header.indexOf('status') + 1)).toMatchObject({ value: 'ok', type: 's', bold: false });
    }
    const summary = workbook.sheet('summary');
    const sHeader = /** @type {string[]} */ (summary.values(1));
    expect(sHeader).toContain('unit');
    const ratioRow = Array.from({ length: summary.rowCount - 1 }, (_, k) => k + 2).find((r) => summary.cell(r, sHeader.indexOf('transport') + 1).value === 'uds/tcp') ?? 0;
    expect(summary.cell(ratioRow, sHeader.indexOf('unit') + 1).value).toBe('ratio');
    expect(typeof summary.cell(ratioRow, sHeader.indexOf('mean') + 1).value).toBe('number');
    expect(summary.cell(ratioRow, sHeader.indexOf('ci95_df') + 1).numFmt).toBe('0.0'); // fractional when moderated, never shown as a rate
    const wide = workbook.sheet('runs-wide');
    expect(wide.cell(1, 1).value).toBe('NAME (ms per 100 000 round trips)');
    expect(typeof wide.cell(2, 2).value).toBe('number');
    expect(workbook.sheet('report').values(2)).toEqual(['status', 'complete']);
  });

  it('gives the findings as JSON on stdout with --json, with the keys test/fixtures/schema pins, and writes where --out says', async () => {
    const elsewhere = join(tmp.dir, 'elsewhere');
    await mkdir(elsewhere);
    const result = await callMain(['report', out(), '--json', '--out', elsewhere]);
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.status).toBe('complete');
    expect(json.verdicts).toHaveLength(2);
    expect(json.sections.map((/** @type {any} */ s) => s.depth)).toEqual([1, 16]);
    const ratio = json.sections[0].sizes[0].figures.msgs_per_s.ratio;
    expect(typeof ratio.value).toBe('number');
    expect(typeof ratio.low).toBe('number');
    expect(Array.isArray(json.warnings)).toBe(true);
    expect(json.summary.length).toBeGreaterThan(0);
    expect(keyPaths(json)).toEqual(JSON.parse(readSchemaFixture('report-json.json')));
    expect((await readdir(elsewhere)).sort()).toEqual([...CHARTS, 'report.html', 'results.xlsx', 'summary.md'].sort());
    expect(result.stderr).toMatch(/^depth 1\nsize +TCP msgs\/s/m);
  }, 30_000);

  it('makes another figure the one the verdicts are about with --figure', async () => {
    const elsewhere = join(tmp.dir, 'by-rtt');
    await mkdir(elsewhere);
    const result = await callMain(['report', out(), '--json', '--figure', 'rtt_p50_us', '--out', elsewhere]);
    expect(result.code, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.primary.metric).toBe('rtt_p50_us');
    expect(json.sections.every((/** @type {any} */ s) => s.primary === 'rtt_p50_us')).toBe(true);
    expect(result.stderr).toMatch(/^size +TCP RTT p50 µs +UDS RTT p50 µs/m); // the table is about it too
  }, 30_000);
});
