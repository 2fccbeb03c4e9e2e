/**
 * sweep --intervals: moderated across the groups (the default) or each group
 * on its own. The flag is carried by a real sweep (one group is enough for
 * `own`); moderation itself needs several groups of runs, so it is shown on
 * hand-made rows of three groups, through `report --json`, which summarises
 * a results directory as the sweep does (test/unit/ratio-moderation.test.js
 * has the statistics).
 */
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callMain, makeTempDir } from '../helpers/cli.js';
import { callMainLeavingNothing } from '../helpers/in-process.js';
import { ENVIRONMENT, okRow, writeResults } from '../helpers/results-fixture.js';
import { readMetaJson, writeTinySpec } from '../helpers/sweeps.js';
import { toSummaryText } from '../../lib/stats/summarize.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => tmp.remove());

/**
 * summary.csv's UDS/TCP msgs/s rows.
 * @param {string} dir
 */
async function ratioRows(dir) {
  /** @type {Record<string, string>[]} */
  const summary = parse(await readFile(join(dir, 'summary.csv'), 'utf8'), { columns: true });
  return summary.filter((r) => r.transport === 'uds/tcp' && r.metric === 'msgs_per_s');
}

describe('sweep --intervals: moderated across the groups (the default) or each group on its own', () => {
  it('moderates by default: more degrees of freedom than a group\'s own runs, and says so', async () => {
    const dir = join(tmp.dir, 'moderated');
    await mkdir(dir);
    const sizes = [1, 64, 1024];
    /** @type {Record<string, any>[]} */
    const rows = [];
    for (const [g, size] of sizes.entries()) {
      for (let run = 0; run < 3; run++) rows.push(okRow(run, 'tcp', size, 1, 10_000), okRow(run, 'uds', size, 1, 12_000 + 400 * ((run + g) % 3)));
    }
    await writeResults(dir, rows, { status: 'complete', trials_planned: rows.length, environment: ENVIRONMENT, spec: { sizes, depths: [1], transports: ['tcp', 'uds'], runs: 3 } });
    const { code, stdout, stderr } = await callMain(['report', dir, '--json']);
    expect(code, stderr).toBe(0);
    /** @type {Record<string, any>[]} */
    const ratios = JSON.parse(stdout).summary.filter((/** @type {Record<string, any>} */ r) => r.transport === 'uds/tcp' && r.metric === 'msgs_per_s');
    expect(ratios).toHaveLength(3);
    for (const r of ratios) expect(Number(r.ci95_df)).toBeGreaterThan(Number(r.n) - 1);
    expect(toSummaryText(JSON.parse(stdout).summary)).toContain("each group's variance moderated across the 3 groups"); // the sweep's printed summary
    expect(await readFile(join(dir, 'summary.md'), 'utf8')).toContain('moderated across the groups');
  });

  it('with --intervals own, gives each group its runs alone: n − 1 degrees of freedom, and no word of moderation', async () => {
    const spec = await writeTinySpec(tmp.dir, { sizes: [64], runs: 2, packets: 100 });
    const out = join(tmp.dir, 'own');
    const { code, stderr } = await callMainLeavingNothing(['sweep', spec, '--test', '--no-probe', '--out', out, '--intervals', 'own']);
    expect(code, stderr).toBe(0);
    const ratios = await ratioRows(out);
    expect(ratios).toHaveLength(1);
    for (const r of ratios) expect(Number(r.ci95_df)).toBe(Number(r.n) - 1);
    const meta = await readMetaJson(out);
    expect(meta.spec.intervals).toBe('own');
    expect(meta.design.ratio_interval).toContain('each group on its own');
    expect(stderr).not.toContain('moderated');
    expect(await readFile(join(out, 'summary.md'), 'utf8')).not.toContain('moderated');
  }, 60_000); // a real sweep: slow on a loaded 2-core machine

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
