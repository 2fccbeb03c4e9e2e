/**
 * Sizes in each workload's own words, and the sweep's line about its amounts. postgres's size axis is a count of
 * primary-key lookups, not bytes: a fresh-user trial saw `run --workload postgres` print "1 B × connections 3", the
 * help "0 B to 1 B", a sweep "sizes 0 B, 1 B"; the under-load presets' test mode said "after 0 packets warmup" of
 * time-paced workloads. Files keep the numbers.
 */
import { describe, expect, it } from 'vitest';
import { sizeLabel } from '../../lib/workloads/index.js';
import { describeSpec, loadSpec, resolveSpec } from '../../lib/sweep/spec.js';
import { toTable } from '../../lib/report/table.js';
import { errorRecord } from '../../lib/trial/record.js';
import { toVerdict } from '../../lib/report/verdict.js';
import { findKnees } from '../../lib/stats/knees.js';
import { callMain } from '../helpers/cli.js';

/** @param {number} size @param {number} value @param {number} low @param {number} high */
const at = (size, value, low, high) => ({ size_bytes: size, ratio: { value, low, high, n: 10 } });

describe('a size for people, in the workload\'s words', () => {
  it('postgres and postgres-rate count lookups (0 is SELECT 1); the others are bytes', () => {
    expect(sizeLabel('postgres', 0)).toBe('SELECT 1');
    expect(sizeLabel('postgres', 1)).toBe('1 lookup');
    expect(sizeLabel('postgres-rate', 1)).toBe('1 lookup');
    expect(sizeLabel('echo', 64)).toBe('64 B');
    expect(sizeLabel('redis', 16384)).toBe('16 KiB');
    expect(sizeLabel(undefined, 1048576)).toBe('1 MiB');
  });

  it('run\'s table of postgres trials; the JSON record keeps the number', () => {
    const record = errorRecord({ workload: 'postgres', transport: 'tcp', size_bytes: 0, depth: 3 }, new Error('refused'));
    const table = toTable([record]);
    expect(table).toMatch(/^tcp +SELECT 1 +3 /m);
    expect(table).not.toContain(' 0 B');
    expect(record.size_bytes).toBe(0);
  });

  it('a postgres verdict names its sizes as lookups', () => {
    const figure = { label: 'queries per second' };
    expect(toVerdict({ workload: 'postgres', depth: 3, sizes: [at(0, 1.3, 1.2, 1.4), at(1, 1.25, 1.2, 1.3)] }, figure))
      .toBe('connections 3: UDS gives 1.25–1.30× the queries per second of TCP at SELECT 1–1 lookup (every 95 % CI above 1).');
  });

  it('a postgres-rate knee is at a number of lookups', () => {
    const row = (/** @type {string} */ transport, /** @type {number} */ rate, /** @type {string} */ limit) => ({ workload: 'postgres-rate', node_version: 'v20.20.2', run: 0, size_bytes: 1, depth: rate, transport, status: 'ok', limit });
    const [knee] = findKnees([row('tcp', 500, 'none'), row('tcp', 1000, 'server'), row('uds', 500, 'none'), row('uds', 1000, 'none')]);
    expect(knee.line).toMatch(/^knee at 1 lookup \(/);
  });
});

describe('describeSpec: the sweep\'s line', () => {
  it('the postgres preset\'s sizes in lookups', () => {
    expect(describeSpec(resolveSpec(loadSpec('postgres')))).toContain(': sizes SELECT 1, 1 lookup; depths 1, 16;');
  });

  it('a warmup of 0 is no warmup, in the under-load presets\' test mode; a timed warmup is its time', () => {
    expect(describeSpec(resolveSpec(loadSpec('echo-under-load'), { test: true }))).toContain('; 2 runs of 200 ms with no warmup;');
    expect(describeSpec(resolveSpec(loadSpec('http-under-load'), { test: true }))).toContain('; 2 runs of 200 ms with no warmup;');
    expect(describeSpec(resolveSpec(loadSpec('http-under-load')))).toContain('; 3 runs of 1000 ms after 200 ms warmup;');
  });
});

describe('run --help: the size axis', () => {
  it('postgres\'s range is the numbers to type, its default a lookup, not bytes', async () => {
    const { code, stdout } = await callMain(['run', '--help']);
    expect(code).toBe(0);
    const help = stdout.replace(/\s+/g, ' ');
    expect(help).toContain('postgres: primary-key lookups per query (0: SELECT 1, 1: pgbench -S) 0 to 1;');
    expect(help).toContain('1 lookup (postgres, postgres-rate)');
    expect(help).not.toMatch(/\b[01] B to 1 B\b/);
  });
});
