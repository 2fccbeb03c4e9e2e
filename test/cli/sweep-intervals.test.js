import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callMain, makeTempDir, runCli } from '../helpers/cli.js';
import { readMetaJson, writeTinySpec } from '../helpers/sweeps.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => tmp.remove());

/**
 * A real sweep of three echo groups (2 runs each) with the given flags; its UDS/TCP msgs/s rows and files.
 * @param {string} name
 * @param {string[]} flags
 */
async function sweep(name, flags) {
  const spec = await writeTinySpec(tmp.dir, { sizes: [1, 64, 1024], runs: 2, packets: 200 });
  const out = join(tmp.dir, name);
  const { code, stderr } = await runCli(['sweep', spec, '--test', '--no-probe', '--out', out, ...flags]);
  expect(code, stderr).toBe(0);
  /** @type {Record<string, string>[]} */
  const summary = parse(await readFile(join(out, 'summary.csv'), 'utf8'), { columns: true });
  const ratios = summary.filter((r) => r.transport === 'uds/tcp' && r.metric === 'msgs_per_s');
  expect(ratios).toHaveLength(3);
  return { ratios, stderr, meta: await readMetaJson(out), md: await readFile(join(out, 'summary.md'), 'utf8') };
}

describe('sweep --intervals: moderated across the groups (the default) or each group on its own', () => {
  it('moderates by default: more degrees of freedom than a group\'s own runs, and says so', async () => {
    const { ratios, stderr, meta, md } = await sweep('moderated', []);
    for (const r of ratios) expect(Number(r.ci95_df)).toBeGreaterThan(Number(r.n) - 1);
    expect(meta.spec.intervals).toBe('moderated');
    expect(meta.design.ratio_interval).toContain('moderated across groups');
    expect(stderr).toContain("each group's variance moderated across the 3 groups");
    expect(md).toContain('moderated across the groups');
  }, 60_000); // a sweep of 12 trials: slow on a loaded 2-core machine

  it('with --intervals own, gives each group its runs alone: n − 1 degrees of freedom, and no word of moderation', async () => {
    const { ratios, stderr, meta, md } = await sweep('own', ['--intervals', 'own']);
    for (const r of ratios) expect(Number(r.ci95_df)).toBe(Number(r.n) - 1);
    expect(meta.spec.intervals).toBe('own');
    expect(meta.design.ratio_interval).toContain('each group on its own');
    expect(stderr).not.toContain('moderated');
    expect(md).not.toContain('moderated');
  }, 60_000); // a sweep of 12 trials: slow on a loaded 2-core machine

  it('refuses another mode: exit 2, one line naming the flag and the modes, nothing written', async () => {
    const spec = await writeTinySpec(tmp.dir);
    const { code, stdout, stderr } = await callMain(['sweep', spec, '--out', join(tmp.dir, 'never'), '--intervals', 'pooled']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toContain('--intervals must be moderated (each group\'s variance moderated across the sweep\'s groups) or own (each group\'s runs alone); got "pooled"');
    expect(await readdir(tmp.dir)).toEqual(['tiny.json']);
  });
});
