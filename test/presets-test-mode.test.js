/**
 * Every preset in sweeps/ runs end to end in its test mode through the real
 * CLI, and writes the files its workload declares. The presets come from
 * listPresets(), so a new preset is covered without touching this file; what
 * each must write comes from its workload's declaration. Needs nginx for the
 * proxy preset (CI installs it).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFields } from '../lib/record.js';
import { listPresets, loadSpec, resolveSpec } from '../lib/sweep/spec.js';
import { getWorkload } from '../lib/workloads/index.js';
import { makeTempDir, runCli } from './helpers/cli.js';

const PRESETS = listPresets();

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

/** @param {string} file @returns {Promise<Record<string, string>[]>} */
const readCsv = async (file) => parse(await readFile(file, 'utf8'), { columns: true });
/** @param {string} file @returns {Promise<string[]>} */
const readHeader = async (file) => (await readFile(file, 'utf8')).split('\n')[0].split(',');

it('finds the presets in sweeps/, the workloads beyond echo among them', () => {
  expect(PRESETS).toEqual(expect.arrayContaining(['default', 'quick', 'nicmcd-2014', 'myhro-2017-nginx']));
  const workloads = new Set(PRESETS.map((preset) => resolveSpec(loadSpec(preset), { test: true }).workload));
  expect([...workloads].sort()).toEqual(['connect', 'echo', 'http', 'proxy', 'stream']);
});

describe.each(PRESETS)('sweep %s --test --quiet', (preset) => {
  const spec = resolveSpec(loadSpec(preset), { test: true });
  const workload = getWorkload(spec.workload);
  const out = () => join(tmp.dir, `${preset}-out`);
  const tmpdir = () => join(tmp.dir, `${preset}-tmp`); // the child's TMPDIR: socket files, nginx's private directory
  const file = (/** @type {string} */ name) => join(out(), name);
  /** @type {Awaited<ReturnType<typeof runCli>>} */
  let result;
  // one preset at a time: two at once saved little on 2 cores (28 s against 36 s, under load) and doubled the load on the machine
  beforeAll(async () => {
    await mkdir(tmpdir());
    result = await runCli(['sweep', preset, '--test', '--quiet', '--out', out()], { env: { TMPDIR: tmpdir() } });
  }, 60_000);

  it('exits 0, nothing on stdout', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
  });

  it(`writes trials.csv: run, order and the ${spec.workload} record columns; every planned trial ok, for both transports`, async () => {
    expect(await readHeader(file('trials.csv'))).toEqual(['run', 'order', ...recordFields(spec.workload)]);
    const rows = await readCsv(file('trials.csv'));
    const meta = JSON.parse(await readFile(file('meta.json'), 'utf8'));
    expect(rows).toHaveLength(spec.runs * spec.sizes.length * spec.depths.length * spec.transports.length + meta.extra_trial_rows);
    for (const row of rows) {
      expect(row.status, row.error).toBe('ok');
      expect(row.workload).toBe(spec.workload);
    }
    /** @type {Map<string, string[]>} */
    const groups = new Map();
    for (const row of rows) {
      const key = `${row.run}|${row.size_bytes}|${row.depth}`;
      groups.set(key, [...(groups.get(key) ?? []), row.transport]);
    }
    expect(groups.size).toBe(rows.length / spec.transports.length);
    for (const [key, transports] of groups) expect(transports.sort(), key).toEqual([...spec.transports].sort());
  });

  it(`writes blocks.csv with the ${spec.workload} block columns, as many blocks per trial as its row says`, async () => {
    expect(await readHeader(file('blocks.csv'))).toEqual(['run', 'size_bytes', 'depth', 'transport', 'block', ...workload.blockColumns]);
    const blocks = await readCsv(file('blocks.csv'));
    for (const trial of await readCsv(file('trials.csv'))) {
      const mine = blocks.filter((b) => b.run === trial.run && b.size_bytes === trial.size_bytes && b.depth === trial.depth && b.transport === trial.transport);
      expect(mine.length, `${trial.run} ${trial.size_bytes} ${trial.depth} ${trial.transport}`).toBe(Number(trial.blocks));
      expect(mine.length).toBeGreaterThan(0);
    }
  });

  it(`writes summary.csv with a uds/tcp row of ${workload.primary} for every size and depth`, async () => {
    const rows = await readCsv(file('summary.csv'));
    for (const size of spec.sizes) {
      for (const depth of spec.depths) {
        const ratio = rows.find((r) => r.transport === 'uds/tcp' && r.metric === workload.primary && Number(r.size_bytes) === size && Number(r.depth) === depth);
        expect(ratio, `${size} ${depth}`).toBeDefined();
        expect(ratio?.unit).toBe('ratio');
        expect(Number(ratio?.mean)).toBeGreaterThan(0);
      }
    }
  });

  it(workload.fixture.proxy ? 'writes nginx.conf into the results directory' : 'writes no nginx.conf (no proxy in its fixture)', async () => {
    expect(existsSync(file('nginx.conf'))).toBe(workload.fixture.proxy);
    if (workload.fixture.proxy) expect(await readFile(file('nginx.conf'), 'utf8')).toMatch(/upstream[\s\S]*unix:/);
  });

  it('leaves nothing in its TMPDIR (socket files, private directories)', async () => {
    expect(await readdir(tmpdir())).toEqual([]);
  });
});
