import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getWorkload } from '../../lib/workloads/index.js';
import { readResultsDir } from '../../lib/results/reader.js';
import { callMain, makeTempDir } from '../helpers/cli.js';
import { okRow, writeResults } from '../helpers/results-fixture.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

/**
 * A results directory holding the given trials.csv text (and a valid meta.json).
 * @param {string} name
 * @param {string | null} trials
 * @param {string} [meta]
 */
async function dirWith(name, trials, meta = '{"status":"complete"}') {
  const dir = join(tmp.dir, name);
  await mkdir(dir);
  if (trials !== null) await writeFile(join(dir, 'trials.csv'), trials);
  await writeFile(join(dir, 'meta.json'), meta);
  return dir;
}

const HEADER = 'run,order,workload,transport,size_bytes,depth,packets,msgs_per_s,status,error\n';

describe('report and compare refuse what is not a results directory', () => {
  it('name the file and the problem in one line (library)', async () => {
    expect(() => readResultsDir(join(tmp.dir, 'nope'))).toThrow(/nope: no such directory$/);
    const file = join(tmp.dir, 'plain-file');
    await writeFile(file, 'x');
    expect(() => readResultsDir(file)).toThrow(/plain-file: not a directory/);
    const empty = await dirWith('no-trials', null);
    expect(() => readResultsDir(empty)).toThrow(`${join(empty, 'trials.csv')}: not found`);
    const foreign = await dirWith('foreign', 'name,price\napple,1.20\n');
    expect(() => readResultsDir(foreign)).toThrow(`${join(foreign, 'trials.csv')}: not a udsvstcp trials file: no column run, workload, transport, size_bytes, depth, status (found name, price)`);
    const blank = await dirWith('blank', '');
    expect(() => readResultsDir(blank)).toThrow(`${join(blank, 'trials.csv')}: empty file`);
    const ragged = await dirWith('ragged', `${HEADER}0,0,echo,tcp,64,1,100,5000,ok,\n0,1,echo,uds,64\n1,0,echo,tcp,64,1,100,5000,ok,\n`);
    expect(() => readResultsDir(ragged)).toThrow(`${join(ragged, 'trials.csv')}: malformed CSV: line 3 has 5 cells, the header 10`);
    const text = await dirWith('text-figure', `${HEADER}0,0,echo,tcp,64,1,100,"5,000",ok,\n`);
    expect(() => readResultsDir(text)).toThrow(`${join(text, 'trials.csv')}: line 2, column 8 (msgs_per_s): "5,000" is not a number`);
    const size = await dirWith('text-size', `${HEADER}0,0,echo,tcp,64B,1,100,5000,ok,\n`);
    expect(() => readResultsDir(size)).toThrow(`${join(size, 'trials.csv')}: line 2, column 5 (size_bytes): "64B" is not a whole number`);
    const meta = await dirWith('bad-meta', HEADER, '{"status":');
    expect(() => readResultsDir(meta)).toThrow(`${join(meta, 'meta.json')}: not valid JSON`);
  });

  it('set aside a torn last line, as a sweep killed mid-write leaves it, and say so', async () => {
    const dir = await dirWith('torn', `${HEADER}0,0,echo,tcp,64,1,100,5000,ok,\n0,1,echo,uds,64,1,100,6000,error,"conn`);
    const results = readResultsDir(dir);
    expect(results.trials).toHaveLength(1);
    expect(results.notes[0]).toMatch(/last line of trials.csv is incomplete/);
    const short = await dirWith('torn-short', `${HEADER}0,0,echo,tcp,64,1,100,5000,ok,\n0,1,echo,ud`);
    expect(readResultsDir(short).trials).toHaveLength(1);
  });

  it('exit 2 with one line on stderr, writing nothing (command line)', async () => {
    const good = join(tmp.dir, 'good');
    await mkdir(good);
    await writeResults(good, [okRow(0, 'tcp', 64, 1, 1000), okRow(0, 'uds', 64, 1, 1200)]);
    const foreign = join(tmp.dir, 'foreign');
    /** @type {Record<string, string>} */
    const stderr = {};
    for (const args of [['report', join(tmp.dir, 'nope')], ['report', foreign], ['compare', good, foreign], ['compare', join(tmp.dir, 'nope'), good], ['report', good, '--figure', 'speed'], ['report', good, '--out', join(tmp.dir, 'nope')]]) {
      const result = await callMain(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1);
      expect(result.stdout).toBe('');
      stderr[args.join(' ')] = result.stderr;
    }
    expect(stderr[`report ${join(tmp.dir, 'nope')}`]).toBe(`udsvstcp: error: ${join(tmp.dir, 'nope')}: no such directory\n`);
    expect(stderr[`report ${good} --figure speed`]).toBe(`udsvstcp: error: --figure speed: not a figure; echo's figures: ${Object.keys(getWorkload('echo').summary).join(', ')}\n`);
    expect((await readdir(good)).sort()).toEqual(['meta.json', 'trials.csv']);
  }, 60_000);
});
