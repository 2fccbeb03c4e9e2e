/**
 * A chained preset's results directory made by hand (chain.json, and each part a results directory of literal rows):
 * what `sweep --resume DIR` and `report DIR` refuse of it (one line, exit 2, nothing in it changed), that a plain sweep
 * never writes into it, and the one document `sweep --json` and `report --json` give of it. main() runs in this
 * process; no sweep measures anything here (test/cli/sweep-e2e-open.test.js runs the chain for real).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { hostname } from 'node:os';
import { version } from '../../lib/core/environment.js';
import { processStart } from '../../lib/results/lock.js';
import { report as reportApi } from '../../lib/api/report.js';
import { sweep as sweepApi } from '../../lib/api/sweep.js';
import { loadSpec, resolveSpec } from '../../lib/sweep/spec.js';
import { callMain, expectOneLineUsageError } from '../helpers/cli.js';
import { okRow, sweepMeta, writeResults } from '../helpers/results-fixture.js';
import { usePrivateTmpdir } from '../helpers/temp.js';

const tmp = usePrivateTmpdir();
const CHAIN = 'latency-under-load';

/**
 * Every file under `dir`, by its path below it, with the SHA-256 of its bytes and its modification time.
 * @param {string} dir
 * @param {string} [below]
 * @returns {Promise<Record<string, string>>}
 */
async function snapshot(dir, below = '') {
  /** @type {Record<string, string>} */
  const files = {};
  for (const name of (await readdir(join(dir, below))).sort()) {
    const path = join(dir, below, name);
    const info = await stat(path);
    if (info.isDirectory()) Object.assign(files, await snapshot(dir, join(below, name)));
    else files[join(below, name)] = `${createHash('sha256').update(await readFile(path)).digest('hex')} ${info.mtimeMs}`;
  }
  return files;
}

/**
 * chain.json as a sweep of latency-under-load --test --seed 11 writes it.
 * @param {{ status: string, echo: string, http: string }} statuses
 * @param {(chain: Record<string, any>) => void} [edit]
 */
function chainRecord({ status, echo, http }, edit = () => {}) {
  const chain = {
    udsvstcp: version(), preset: CHAIN, description: 'written by a test', test: true, flags: { seed: 11, pin: null }, status,
    started_at: '2026-11-26T10:00:00.000Z', ended_at: status === 'running' ? null : '2026-11-26T10:03:00.000Z',
    parts: [{ name: 'echo', preset: 'echo-under-load', dir: 'echo', status: echo }, { name: 'http', preset: 'http-under-load', dir: 'http', status: http }],
  };
  edit(chain);
  return chain;
}

/** A part's spec as this version records it (an echo sweep, which the rows are: the chain's parts are never read for it) */
const SPEC = resolveSpec(loadSpec('quick'), { test: true, flags: { sizes: '64', depths: '1', runs: '1', seed: '3' } });

/**
 * A chain's directory by hand: chain.json and, for each part given a status, its results (two ok rows, meta.json
 * of that status, this version and this Node).
 * @param {Record<string, any>} chain
 * @param {{ echo?: string, http?: string }} parts the status of each part's meta.json; none: the part has no directory
 */
async function makeChain(chain, parts) {
  const dir = join(tmp.dir, 'chain');
  await mkdir(dir, { mode: 0o755 });
  await writeFile(join(dir, 'chain.json'), `${JSON.stringify(chain, null, 2)}\n`);
  for (const [name, status] of Object.entries(parts)) {
    await mkdir(join(dir, name), { mode: 0o755 });
    await writeResults(join(dir, name), [okRow(1, 'tcp', 64, 1, 50_000), okRow(1, 'uds', 64, 1, 70_000)], sweepMeta({ sizes: [64], depths: [1], runs: 1 }, { udsvstcp: version(), status, spec: SPEC }));
  }
  return dir;
}

/**
 * main(args) refused in one line matching `message`, and nothing under `dir` changed (nor added).
 * @param {string} dir
 * @param {string[]} args
 * @param {RegExp | string} message
 */
async function expectRefusedUnchanged(dir, args, message) {
  const before = await snapshot(dir);
  const result = await callMain(args);
  expectOneLineUsageError(result, message);
  expect(await snapshot(dir)).toEqual(before);
  return result;
}

describe('sweep --resume of a chain\'s directory: chain.json never selects a spec', () => {
  /** @type {string} */
  let cwd;
  beforeEach(async () => {
    // a spec a tampered chain.json could name, where loadSpec would find it by a relative path
    cwd = process.cwd();
    await writeFile(join(tmp.dir, 'evil.json'), JSON.stringify({ workload: 'echo', sizes: [64], depths: [1], runs: 1 }));
    process.chdir(tmp.dir);
    return () => process.chdir(cwd);
  });

  const where = () => join(tmp.dir, 'chain', 'chain.json');
  it.each(/** @type {[string, (chain: Record<string, any>) => void, RegExp | ((file: string) => string)][]} */ ([
    ['a part of a .json spec', (c) => { c.parts[1].preset = 'evil.json'; }, (file) => `${file}: its parts (echo: "echo-under-load", http: "evil.json") are not those of the chained preset ${CHAIN} (echo: echo-under-load, http: http-under-load); it was edited by hand`],
    ['a part not in the preset', (c) => { c.parts[1] = { name: 'quick', preset: 'quick', dir: 'quick', status: 'pending' }; }, /its parts \(echo: "echo-under-load", quick: "quick"\) are not those of the chained preset latency-under-load/],
    ['the parts in another order', (c) => { c.parts.reverse(); }, /its parts \(http: "http-under-load", echo: "echo-under-load"\) are not those/],
    ['a part left out', (c) => { c.parts.pop(); }, /its parts \(echo: "echo-under-load"\) are not those/],
    ['an unknown chained preset', (c) => { c.preset = 'evil'; }, (file) => `${file}: "preset" "evil" is not a chained preset of udsvstcp (${CHAIN}); it was edited by hand`],
    ['a preset that is no chain', (c) => { c.preset = 'echo-under-load'; }, /"preset" "echo-under-load" is not a chained preset of udsvstcp/],
    ['a spec file as the chain', (c) => { c.preset = 'evil.json'; }, /"preset" "evil.json" is not a chained preset of udsvstcp/],
    ['a part named twice', (c) => { c.parts[1] = { ...c.parts[0] }; }, (file) => `${file}: the part "echo" is named twice; it was edited by hand`],
    ['a part\'s dir other than its name', (c) => { c.parts[1].dir = 'echo'; }, /chain\.json: not a chain file of udsvstcp \(it needs "preset" and "parts", each with name, preset and dir\)$/m],
  ]))('%s: exit 2, one line naming chain.json, nothing changed', async (_what, edit, message) => {
    const dir = await makeChain(chainRecord({ status: 'interrupted', echo: 'interrupted', http: 'pending' }, edit), { echo: 'interrupted' });
    const expected = typeof message === 'function' ? `udsvstcp: error: ${message(where())}\n` : null;
    const result = await expectRefusedUnchanged(dir, ['sweep', '--resume', dir], message instanceof RegExp ? message : /./);
    if (expected) expect(result.stderr).toBe(expected);
    // report reads the same file with the same checks
    await expectRefusedUnchanged(dir, ['report', dir], message instanceof RegExp ? message : /./);
  });
});

describe('sweep --resume of a chain with bad input: refused before chain.json is written', () => {
  it.each([
    ['interrupted', { status: 'interrupted', echo: 'complete', http: 'interrupted' }, { echo: 'complete', http: 'interrupted' }],
    ['complete', { status: 'complete', echo: 'complete', http: 'complete' }, { echo: 'complete', http: 'complete' }],
  ])('--node /nonexistent/node on the %s chain (every part begun): exit 2, one line naming --node, chain.json byte-identical, no part marked failed', async (_what, statuses, parts) => {
    const dir = await makeChain(chainRecord(statuses), parts);
    const before = await readFile(join(dir, 'chain.json'));
    const { stderr } = await expectRefusedUnchanged(dir, ['sweep', '--resume', dir, '--node', '/nonexistent/node'], /^udsvstcp: error: --node .*\/nonexistent\/node/);
    expect(stderr).not.toContain('stopped at its part');
    expect(await readFile(join(dir, 'chain.json'))).toEqual(before);
  });

  it('--nginx (for no part of this chain), the http part to resume: exit 2, one line naming --nginx, nothing changed', async () => {
    const dir = await makeChain(chainRecord({ status: 'interrupted', echo: 'complete', http: 'interrupted' }), { echo: 'complete', http: 'interrupted' });
    await expectRefusedUnchanged(dir, ['sweep', '--resume', dir, '--nginx', '/nonexistent/nginx'], /^udsvstcp: error: --nginx applies to the proxy and proxy-rate workloads, not echo$/m);
  });

  it('a part refused as its sweep opens it (its directory in use): exit 2, one line, chain.json says what it said, no part failed', async () => {
    const dir = await makeChain(chainRecord({ status: 'interrupted', echo: 'complete', http: 'interrupted' }), { echo: 'complete', http: 'interrupted' });
    // the http part's lock held by a live udsvstcp (this process): only the part's own session finds it
    await writeFile(join(dir, 'http', 'sweep.lock'), `${JSON.stringify({ pid: process.pid, host: hostname(), process_start: processStart(process.pid), started_at: '2026-11-26T10:00:00.000Z', argv: ['sweep'], token: 'a test' })}\n`);
    const before = await readFile(join(dir, 'chain.json'), 'utf8');
    const result = await callMain(['sweep', '--resume', dir, '--no-report']);
    // the parts' lines as the chain walks them, then the refusal in one line, with no hint of a failed part
    expect([result.code, result.stdout], result.stderr).toEqual([2, '']);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.slice(0, -1).filter((line) => !line.startsWith('== part ') && line !== '')).toEqual([]);
    expect(lines.at(-1)).toMatch(`udsvstcp: error: --resume ${join(dir, 'http')} is in use by udsvstcp pid ${process.pid} `);
    expect(await readFile(join(dir, 'chain.json'), 'utf8')).toBe(before);
    expect(existsSync(join(dir, 'sweep.lock'))).toBe(false);
  });

  it('--seed is compared as a seed: 011 is the recorded 11 (the complete chain resumes, skipping both parts), 12 is refused', async () => {
    const dir = await makeChain(chainRecord({ status: 'complete', echo: 'complete', http: 'complete' }), { echo: 'complete', http: 'complete' });
    await expectRefusedUnchanged(dir, ['sweep', '--resume', dir, '--seed', '12'], `udsvstcp: error: --seed 12 differs from what ${join(dir, 'chain.json')} records (seed 11): a resume runs the chain as it began`);
    const { code, stderr } = await callMain(['sweep', '--resume', dir, '--seed', '011', '--no-report']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`== part http (2 of 2): http-under-load into ${join(dir, 'http')} (complete: skipped)\n`);
  });

  it('a bad --seed is named only after what comes first (--retry-failed without --resume), by the library as by the CLI', async () => {
    const out = join(tmp.dir, 'new');
    await expect(sweepApi({ preset: CHAIN, retryFailed: true, seed: 'x', out })).rejects.toThrow(/^--retry-failed needs --resume DIR/);
    expectOneLineUsageError(await callMain(['sweep', CHAIN, '--retry-failed', '--seed', 'x', '--out', out]), /^udsvstcp: error: --retry-failed needs --resume DIR/);
    expect(existsSync(out)).toBe(false);
  });

  it('a chain directory others may write is refused for whose it is before its chain.json is read (even a malformed one)', async () => {
    const dir = await makeChain(chainRecord({ status: 'interrupted', echo: 'interrupted', http: 'pending' }), { echo: 'interrupted' });
    await writeFile(join(dir, 'chain.json'), '{ not json');
    await chmod(dir, 0o777);
    for (const args of [['sweep', '--resume', dir], ['report', dir]]) {
      await expectRefusedUnchanged(dir, args, new RegExp(`^udsvstcp: error: (--resume|report) ${dir}: others may write it \\(mode 0777\\)`));
    }
  });
});

describe('a chain\'s directory is never a plain sweep\'s', () => {
  it('sweep quick --out CHAINDIR: exit 2, it already holds a chain\'s results, nothing written beside chain.json', async () => {
    const dir = await makeChain(chainRecord({ status: 'interrupted', echo: 'pending', http: 'pending' }), {});
    await expectRefusedUnchanged(dir, ['sweep', 'quick', '--test', '--out', dir], `udsvstcp: error: --out ${dir} already holds a chain's results (chain.json); use --resume ${dir} to complete them, or another --out`);
    expect(await readdir(dir)).toEqual(['chain.json']);
  });
});

describe('the chain\'s document: one shape from sweep --json and report --json, each part\'s status from its meta.json', () => {
  it('report of a chain whose chain.json still says running (killed): the echo part as its meta.json says, http not run', async () => {
    const dir = await makeChain(chainRecord({ status: 'running', echo: 'running', http: 'pending' }), { echo: 'interrupted' });
    const { code, stdout, stderr } = await callMain(['report', dir, '--json']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`== part http (2 of 2): http-under-load in ${join(dir, 'http')}: not run yet (npx udsvstcp sweep --resume ${dir} runs it)\n`);
    const document = JSON.parse(stdout);
    expect(Object.keys(document)).toEqual(['chain', 'description', 'dir', 'status', 'parts']);
    expect(document).toMatchObject({ chain: CHAIN, description: 'written by a test', dir, status: 'interrupted' });
    expect(document.parts.map((/** @type {any} */ p) => [p.name, p.preset, p.dir, p.status, p.document?.status ?? null])).toEqual([
      ['echo', 'echo-under-load', join(dir, 'echo'), 'interrupted', 'interrupted'],
      ['http', 'http-under-load', join(dir, 'http'), 'pending', null],
    ]);
    expect(existsSync(join(dir, 'echo', 'summary.md'))).toBe(true);
    // the library's report() takes a chain's directory as the CLI does
    expect(await reportApi(dir)).toEqual(document);
  });

  it('sweep --resume --json of a complete chain and report --json give the same document (each part\'s files aside)', async () => {
    const dir = await makeChain(chainRecord({ status: 'complete', echo: 'complete', http: 'complete' }), { echo: 'complete', http: 'complete' });
    const swept = await callMain(['sweep', '--resume', dir, '--json']);
    expect(swept.code, swept.stderr).toBe(0);
    const reported = await callMain(['report', dir, '--json']);
    expect(reported.code, reported.stderr).toBe(0);
    const [a, b] = [JSON.parse(swept.stdout), JSON.parse(reported.stdout)];
    const withoutFiles = (/** @type {any} */ d) => ({ ...d, parts: d.parts.map((/** @type {any} */ p) => ({ ...p, document: { ...p.document, files: [] } })) });
    expect(Object.keys(a)).toEqual(['chain', 'description', 'dir', 'status', 'parts']);
    expect(withoutFiles(a)).toEqual(withoutFiles(b));
    expect(a.parts.map((/** @type {any} */ p) => p.status)).toEqual(['complete', 'complete']);
    expect(b.parts[0].document.files.length).toBeGreaterThan(0);
  });
});
