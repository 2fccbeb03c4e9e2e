import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { version } from '../../lib/core/environment.js';
import { callMain, runCli } from '../helpers/cli.js';
import { readMetaJson, readTrialRows, startSweep, writeTinySpec } from '../helpers/sweeps.js';
import { copyResultsDir, useTempDir } from '../helpers/temp.js';

const tmp = useTempDir();
/** @type {string} an interrupted sweep: 1 of 2 trials done (sizes 1 and 64, 1 run), without the report files, which no test here reads */
let base;
beforeAll(async () => {
  base = join(tmp.dir, 'base');
  const sweep = startSweep([await writeTinySpec(tmp.dir, { runs: 1 }), '--test', '--no-probe', '--no-report', '--out', base], {
    onStderr: (text, child) => { if (text.includes('[1/2]') && !child.killed) child.kill('SIGINT'); },
  });
  expect((await sweep.done).code).toBe(130);
}, 60_000);

/**
 * A copy of the interrupted sweep, its meta.json edited.
 * @param {string} name
 * @param {(meta: Record<string, any>) => void} [edit]
 */
async function copy(name, edit) {
  const dir = await copyResultsDir(base, tmp.dir, name);
  if (edit) {
    const meta = await readMetaJson(dir);
    edit(meta);
    await writeFile(join(dir, 'meta.json'), JSON.stringify(meta));
  }
  return dir;
}

/**
 * @param {string[]} args
 * @param {RegExp | string} message
 */
async function expectRefused(args, message) {
  const { code, stdout, stderr } = await callMain(args);
  expect(code, stderr).toBe(2);
  expect(stdout).toBe('');
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  if (typeof message === 'string') expect(stderr).toContain(message);
  else expect(stderr).toMatch(message);
}

describe('--resume checks meta.json as strictly as a spec file', () => {
  it.each([
    ['no spec', (/** @type {any} */ m) => { delete m.spec; }, /meta\.json "spec" is missing or not an object of sweep keys/],
    ['sizes [3]', (/** @type {any} */ m) => { m.spec.sizes = [3]; }, /meta\.json "spec" "sizes" must be a power of two/],
    ['transports ["quic"]', (/** @type {any} */ m) => { m.spec.transports = ['quic']; }, /meta\.json "spec" "transports" must be one of tcp, uds, uds-abstract, ipc-json, ipc-advanced, worker, or a list of them/],
    ['runs [3]', (/** @type {any} */ m) => { m.spec.runs = [3]; }, /meta\.json "spec" "runs" must be a JSON number, a whole number from 1 to 1000; got \[3\]/],
    ['an unknown key', (/** @type {any} */ m) => { m.spec.colour = 'red'; }, /meta\.json "spec": unknown key "colour"/],
    ['no seed', (/** @type {any} */ m) => { m.spec.seed = null; }, /meta\.json "spec" "seed" must be the whole number the sweep used/],
  ])('refuses a hand-edited meta.json (%s): exit 2, one line naming the key, nothing changed', async (name, edit, message) => {
    const dir = await copy(name.replace(/\W+/g, '-'), edit);
    const before = await readFile(join(dir, 'trials.csv'), 'utf8');
    await expectRefused(['sweep', '--resume', dir], message);
    expect(await readFile(join(dir, 'trials.csv'), 'utf8')).toBe(before);
  });

  it('refuses a directory measured by another udsvstcp version, naming both', async () => {
    const dir = await copy('version', (m) => { m.udsvstcp = '0.0.1'; });
    await expectRefused(['sweep', '--resume', dir], `was measured with udsvstcp 0.0.1 and this is ${version()}; trials of two versions are not mixed`);
  });

  it('refuses flags that differ from the recorded ones, naming them', async () => {
    const dir = await copy('differ');
    await expectRefused(['sweep', '--resume', dir, '--runs', '3', '--warmup', '5'], /--runs 3 \(recorded: 1\); --warmup 5 packets \(recorded: 0 packets\) differ from what meta\.json records/);
  });

  it('accepts flags equal to the recorded ones, and a spec without the keys 0.6.0 did not record, and keeps every session\'s environment', async () => {
    const dir = await copy('equal', (m) => {
      m.environment.node = 'first-run';
      m.sessions[0].environment.node = 'first-run';
      delete m.spec.arrivals; // recorded since open loop: a sweep of 0.6.0 ran with its default
      for (const key of ['connections', 'serverWorkMs', 'serverDelayMs']) delete m.spec[key]; // likewise, since HTTP in open loop
    });
    const { code, stderr } = await runCli(['sweep', 'tiny', '--resume', dir, '--runs', '1', '--packets', '100', '--sizes', '64,1', '--seed', '9', '--warmup', '0', '--no-probe', '--no-report', '--quiet']);
    expect(code, stderr).toBe(0);
    expect(await readTrialRows(dir)).toHaveLength(4);
    const meta = await readMetaJson(dir);
    expect(meta.environment.node).toBe('first-run');
    expect(meta.sessions).toEqual([
      expect.objectContaining({ kind: 'start', status: 'interrupted', environment: expect.objectContaining({ node: 'first-run' }) }),
      expect.objectContaining({ kind: 'resume', status: 'complete', argv: expect.arrayContaining(['--resume', dir]), environment: expect.objectContaining({ node: process.versions.node, udsvstcp: version() }) }),
    ]);
    expect(meta.resumed_at).toHaveLength(1);
  });
});
