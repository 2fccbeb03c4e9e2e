/**
 * Four presets' real `sweep --test`, each also carrying a behaviour of its
 * own so that no extra sweep is needed for it: quick asks for a precision it
 * cannot reach before --max-time, nicmcd-2014 pins both ends to one CPU,
 * eliben-2019-latency asks for --pin split on a PATH without taskset (so the
 * wake-up probe cannot run and says why), and default skips the probe. All
 * are of the echo workload: default's sweep writes the report, checked there;
 * the others sweep with --no-report (the charts cost a second of CPU a sweep).
 * The other presets are swept in sweep-e2e-more.test.js, in the other worker.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/cli.js';
import { OWN, describePresetSweeps, reportUncovered } from '../helpers/preset-sweeps.js';

const KEYS = JSON.parse(await readFile(new URL('../fixtures/machine-keys.json', import.meta.url), 'utf8'));

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

/** @param {string} text @returns {Record<string, any>[]} */
const parseCsv = (text) => parse(text, { columns: true });

const { swept, sweptDir } = describePresetSweeps(Object.keys(OWN), { dir: () => tmp.dir, runs: OWN });

it("sweeps with its report at least one preset of each workload here (the others' sweeps have --no-report)", () => {
  expect(reportUncovered(Object.keys(OWN), OWN)).toEqual([]);
  expect(reportUncovered(['quick'], OWN)).toEqual(['quick']); // alone, its workload's report is checked nowhere: the check can fail
});

describe('sweep --pin (on the presets swept above)', () => {
  it('without taskset, runs unpinned, says so, and records it (and no wake-up probe, with the reason)', async () => {
    const { code, stderr } = swept('eliben-2019-latency');
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('note: --pin split: taskset not found (Linux util-linux); running unpinned');
    const meta = JSON.parse(await readFile(join(sweptDir('eliben-2019-latency'), 'meta.json'), 'utf8'));
    expect(meta.sessions[0].pinning).toBe('none');
    expect(meta.machine).toMatchObject({ wakeup: null, wakeup_note: 'taskset not found (Linux util-linux): no pinning, so no wake-up probe' });
    expect(meta.machine.virtualisation.vm).toBeNull(); // systemd-detect-virt is not on that PATH either
    expect(stderr).toContain('wake-up probe: none (taskset not found (Linux util-linux): no pinning, so no wake-up probe)');
  });

  it('with taskset, records where server and client ran', async () => {
    expect(swept('nicmcd-2014').code).toBe(0);
    expect(JSON.parse(await readFile(join(sweptDir('nicmcd-2014'), 'meta.json'), 'utf8')).sessions[0].pinning).toBe('same: server and client cpu 0');
  });
});

describe('sweep --no-probe (on the default sweep above)', () => {
  it('skips the probe and says so', async () => {
    const { code, stderr } = swept('default');
    expect(code, stderr).toBe(0);
    const { machine } = JSON.parse(await readFile(join(sweptDir('default'), 'meta.json'), 'utf8'));
    expect(machine).toMatchObject({ wakeup: null, wakeup_note: 'not run: --no-probe' });
    expect(Object.keys(machine.sysctl).sort()).toEqual(KEYS.sysctl);
    expect(stderr).toContain('wake-up probe: none (not run: --no-probe)');
  });

  it('prints a verdict for each depth after the summary', () => {
    const { code, stderr } = swept('default');
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/^depth 1: .+\.$/m);
    expect(stderr).toMatch(/^depth 4: .+\.$/m);
  });
});

describe('sweep --precision (on the quick sweep above)', () => {
  it('adds runs to the groups whose UDS/TCP interval is wider than asked, stops at --max-time, and marks them', async () => {
    const out = sweptDir('quick');
    const { code, stderr } = swept('quick');
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/precision round 1: 1 group\(s\) wider than ±0\.1 %, widest 64 B depth 1 ±[\d.]+ %; one more run for the 1 that gain most from one/);
    expect(stderr).toMatch(/--max-time 6 s reached: 1 group\(s\) short of ±0\.1 %/);
    const meta = JSON.parse(await readFile(join(out, 'meta.json'), 'utf8'));
    expect(meta.extra_trial_rows).toBeGreaterThan(0);
    expect(meta.max_time_reached).toBe(true);
    const rows = parseCsv(await readFile(join(out, 'trials.csv'), 'utf8'));
    expect(rows).toHaveLength(4 + meta.extra_trial_rows);
    expect(new Set(rows.map((/** @type {any} */ r) => r.run)).size).toBe(2 + meta.extra_trial_rows / 2);
    const ratio = parseCsv(await readFile(join(out, 'summary.csv'), 'utf8')).find((/** @type {any} */ r) => r.transport === 'uds/tcp' && r.metric === 'msgs_per_s');
    expect(ratio).toMatchObject({ unit: 'ratio', precision_met: 'no', n: String(2 + meta.extra_trial_rows / 2) });
    // the 2014 layout has a column for every run, the added ones too
    const header = (await readFile(join(out, 'runs-wide.csv'), 'utf8')).split('\n')[0].split(',');
    expect(header).toHaveLength(1 + 2 + meta.extra_trial_rows / 2);
    expect(stderr).toMatch(/^ {2}! wider than the ±0\.1 % target of --precision\.$/m);
    // the report's warning, its remedy by what the sweep did: a larger --max-time; --pin split only where it was not pinned so
    expect(stderr).toMatch(new RegExp(`warning: 1 of 1 UDS/TCP intervals are wider than the ±0\\.1 % target of --precision, widest 64 B depth 1 \\(.*\\); consider a larger --max-time, ${String(meta.pinning).startsWith('split') ? '' : '--pin split, '}or a quieter machine$`, 'm'));
  });
});
