import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeReport } from '../../lib/report/report-files.js';
import { xmlSafeText } from '../../lib/report/xlsx.js';
import { callMain } from '../helpers/cli.js';
import { useTempDir } from '../helpers/temp.js';
import { ENVIRONMENT, errorRow, okRow, writeResults } from '../helpers/results-fixture.js';
import { readXlsx } from '../helpers/xlsx.js';

const tmp = useTempDir();

describe('results.xlsx from text XML 1.0 cannot hold', () => {
  it('is well-formed, shows each such character escaped, and keeps formula-like text as text', async () => {
    const dir = join(tmp.dir, 'hostile');
    await mkdir(dir);
    const rows = [];
    for (let run = 0; run < 2; run++) rows.push(okRow(run, 'tcp', 64, 1, 1000 + run), okRow(run, 'uds', 64, 1, 1200 + run));
    // what a sweep recorded when TMPDIR held U+FFFE and a hostile path an ESC sequence
    rows.push(errorRow(2, 'uds', 64, 1, 'connect ENOENT /tmp/x\uFFFEy/\u001b[31mred\u0000 =1+1'));
    rows.push(errorRow(2, 'tcp', 64, 1, '=HYPERLINK("http://example.invalid","x")'));
    await writeResults(dir, rows, { status: 'interrupted', environment: { ...ENVIRONMENT, cpu_model: 'CPU\uFFFF\u001b]0;title\u0007', os_release: '=1+1' } });

    const result = await callMain(['report', dir]);
    expect(result.code, result.stderr).toBe(0);
    const workbook = await readXlsx(join(dir, 'results.xlsx')); // throws on a forbidden character or malformed XML
    expect(workbook.parts).toContain('xl/sharedStrings.xml');

    const trials = workbook.sheet('trials');
    const header = /** @type {string[]} */ (trials.values(1));
    const errors = Array.from({ length: trials.rowCount - 1 }, (_, k) => trials.cell(k + 2, header.indexOf('error') + 1)).filter((c) => c.value !== null);
    expect(errors.map((c) => c.value)).toEqual([
      'connect ENOENT /tmp/x\\uFFFEy/\\u001B[31mred\\u0000 =1+1',
      '\'=HYPERLINK("http://example.invalid","x")', // as trials.csv holds it
    ]);
    for (const cell of errors) expect(cell).toMatchObject({ type: 's', formula: false });

    const about = workbook.sheet('report');
    const cpu = Array.from({ length: about.rowCount }, (_, k) => about.values(k + 1)).find(([item]) => item === 'cpu_model');
    expect(cpu).toEqual(['cpu_model', 'CPU\\uFFFF\\u001B]0;title\\u0007']);
    const release = Array.from({ length: about.rowCount }, (_, k) => k + 1).find((r) => about.cell(r, 1).value === 'os_release') ?? 0;
    expect(about.cell(release, 2)).toMatchObject({ value: '=1+1', type: 's', formula: false });
  }, 30_000);

  it('keeps numbers as numbers on the report sheet (the sysctls and the environment\'s net limits meta.json holds as numbers), text as text', async () => {
    const dir = join(tmp.dir, 'typed');
    await mkdir(dir);
    const rows = [];
    for (let run = 0; run < 2; run++) rows.push(okRow(run, 'tcp', 64, 1, 1000 + run), okRow(run, 'uds', 64, 1, 1200 + run));
    const sysctl = { 'net.core.rmem_default': 212992, 'net.core.wmem_max': 4194304, 'net.ipv4.tcp_wmem': [4096, 16384, 4194304], 'net.core.somaxconn': 4096, 'net.ipv4.tcp_autocorking': 0, 'net.unix.max_dgram_qlen': null };
    const net = { ip_local_port_range: '32768-60999', tcp_tw_reuse: 2, somaxconn: 4096 };
    await writeResults(dir, rows, { status: 'complete', environment: { ...ENVIRONMENT, os_release: '=1+1', cpu_count: 2, loadavg: [0.52, 0.4, 0.31], net }, machine: { sysctl } });

    await writeReport(dir); // in this process: what `report` and the sweep write
    const about = (await readXlsx(join(dir, 'results.xlsx'))).sheet('report');
    const byItem = new Map(Array.from({ length: about.rowCount - 1 }, (_, k) => [about.cell(k + 2, 1).value, about.cell(k + 2, 2)]));
    for (const name of ['net.core.rmem_default', 'net.core.wmem_max', 'net.core.somaxconn', 'net.ipv4.tcp_autocorking']) {
      expect(byItem.get(name), name).toMatchObject({ value: sysctl[/** @type {keyof typeof sysctl} */ (name)], type: 'n', formula: false });
    }
    expect(byItem.get('cpu_count')).toMatchObject({ value: 2, type: 'n' });
    // the environment's objects a row per key (it was one cell of JSON text), its lists as text
    expect(byItem.get('net.somaxconn')).toMatchObject({ value: 4096, type: 'n' });
    expect(byItem.get('net.tcp_tw_reuse')).toMatchObject({ value: 2, type: 'n' });
    expect(byItem.get('net.ip_local_port_range')).toMatchObject({ value: '32768-60999', type: 's' });
    expect(byItem.get('loadavg')).toMatchObject({ value: '0.52 0.4 0.31', type: 's' });
    expect(byItem.get('net.ipv4.tcp_wmem')).toMatchObject({ value: '4096 16384 4194304', type: 's' }); // a list: text
    expect(byItem.get('net.unix.max_dgram_qlen')).toMatchObject({ value: 'unknown', type: 's' });
    expect(byItem.get('os_release')).toMatchObject({ value: '=1+1', type: 's', formula: false }); // text from a file never a formula
    // no cell of the sheet holds a plain number as text
    const numericText = [...byItem.entries()].filter(([, c]) => typeof c.value === 'string' && /^-?\d+(\.\d+)?$/.test(c.value));
    expect(numericText).toEqual([]);
  }, 30_000);

  it('escapes C0 and C1 controls, lone surrogates and noncharacters, and nothing else', () => {
    expect(xmlSafeText('tab\tLF\nCR\r ok: é € 😀 中')).toBe('tab\tLF\nCR\r ok: é € 😀 中');
    expect(xmlSafeText('\u0000\u0008\u000b\u000c\u001f\u007f\u0085\u009f')).toBe('\\u0000\\u0008\\u000B\\u000C\\u001F\\u007F\\u0085\\u009F');
    expect(xmlSafeText('a\ud800b\udc00c')).toBe('a\\uD800b\\uDC00c');
    expect(xmlSafeText('\ufffe\uffff\ufdd0\ufffd\u{1fffe}\u{10ffff}')).toBe('\\uFFFE\\uFFFF\\uFDD0\\uFFFD\\u{1FFFE}\\u{10FFFF}');
  });
});
