/**
 * The open-loop presets (echo-under-load, http-under-load), each one real
 * `sweep --test` with the tests every preset's sweep must pass
 * (test/helpers/preset-sweeps.js), in a file of their own so they run beside
 * sweep-e2e-more.test.js; http-under-load's also with --server-work and
 * --server-delay, so that no extra sweep is needed for them; and --depths
 * auto, on a sweep of one size. The chained preset latency-under-load (echo-under-load,
 * then http-under-load) is swept once, interrupted in its first part and
 * resumed: echo-under-load's tests are of that sweep's echo part, which is
 * not swept alone.
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTO_FLOOR_TEST, rateLadder, withKnees } from '../../lib/sweep/rates-auto.js';
import { getWorkload } from '../../lib/workloads/index.js';
import { callMain, makeTempDir } from '../helpers/cli.js';
import { readMetaJson, readTrialRows, startSweep } from '../helpers/sweeps.js';
import { expectPinnedHeaders } from '../helpers/schema.js';
import { CHAINS, OPEN, SPLIT, describePresetSweeps, partSection } from '../helpers/preset-sweeps.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

const CHAIN = 'latency-under-load';
const chainDir = () => join(tmp.dir, CHAIN);
/** @type {Promise<{ interrupted: { code: number | null, stderr: string }, left: { chain: Record<string, any>, echo: Record<string, any>, http: boolean }, resumed: Awaited<ReturnType<typeof callMain>> }> | undefined} */
let chainSweep;
/**
 * The chain's one sweep, made once for every test that reads it: Ctrl-C once its first part has measured a trial, then
 * --resume, which completes that part and runs the second.
 */
function sweepChain() {
  chainSweep ??= (async () => {
    let sent = false;
    const interrupted = await startSweep([CHAIN, '--test', '--no-probe', '--seed', '11', '--out', chainDir()], {
      onStderr: (text, child) => {
        if (!sent && /^\[1\/\d+\] /m.test(text)) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    }).done;
    // what the Ctrl-C left, before the resume changes it
    const left = { chain: JSON.parse(await readFile(join(chainDir(), 'chain.json'), 'utf8')), echo: await readMetaJson(join(chainDir(), 'echo')), http: existsSync(join(chainDir(), 'http')) };
    const resumed = await callMain(['sweep', '--resume', chainDir()]);
    return { interrupted, left, resumed };
  })();
  return chainSweep;
}

// both parts of the chain's one sweep are checked as their presets' own sweeps: neither is swept alone
describePresetSweeps(OPEN, {
  dir: () => tmp.dir,
  runs: {
    'echo-under-load': { args: ['--no-probe'], seed: 11, pinning: SPLIT, timeoutMs: 120_000, chain: { part: 'echo', dir: chainDir, sweep: async () => (await sweepChain()).resumed } },
    'http-under-load': { args: ['--no-probe'], seed: 11, pinning: SPLIT, timeoutMs: 120_000, chain: { part: 'http', dir: chainDir, sweep: async () => (await sweepChain()).resumed } },
  },
});

describe(`sweep ${CHAIN} --test: a chained preset, each part an ordinary sweep into a directory of its own`, () => {
  it('is the one chained preset, of echo-under-load and http-under-load, and its parts are open-loop presets swept here', () => {
    expect(CHAINS).toEqual([CHAIN]);
    expect(OPEN).toEqual(expect.arrayContaining(['echo-under-load', 'http-under-load']));
  });

  it('Ctrl-C in the first part: that part stopped resumable, the second not started, exit 130, and the resume command names the chain\'s directory', async () => {
    const { interrupted, left } = await sweepChain();
    expect(interrupted.code, interrupted.stderr).toBe(130);
    expect(interrupted.stderr.startsWith(`== part echo (1 of 2): echo-under-load into ${join(chainDir(), 'echo')}\n`)).toBe(true);
    expect(interrupted.stderr).not.toContain('== part http');
    expect(interrupted.stderr).toContain(`interrupted (SIGINT): what was measured is kept. Resume with:\n  npx udsvstcp sweep --resume ${chainDir()}\n`);
    expect(left.http).toBe(false);
    expect(left.chain).toMatchObject({ status: 'interrupted', parts: [{ name: 'echo', status: 'interrupted' }, { name: 'http', status: 'pending' }] });
    expect(left.echo.status).toBe('interrupted');
  }, 150_000);

  it('--resume DIR completes the first part and runs the second: exit 0, DIR on stdout, chain.json complete, each part a complete results directory of ok rows', async () => {
    const { resumed } = await sweepChain();
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toBe(`${chainDir()}\n`);
    expect([...resumed.stderr.matchAll(/^== part (\S+) \((\d) of 2\)/gm)].map((m) => `${m[1]} ${m[2]}`)).toEqual(['echo 1', 'http 2']);
    expect(partSection(resumed.stderr, 'echo')).toMatch(/\(resuming: [1-9]\d* trial rows already there\)/);
    const chain = JSON.parse(await readFile(join(chainDir(), 'chain.json'), 'utf8'));
    expect(chain).toMatchObject({ preset: CHAIN, test: true, flags: { seed: 11, pin: null }, status: 'complete', parts: [{ name: 'echo', preset: 'echo-under-load', dir: 'echo', status: 'complete' }, { name: 'http', preset: 'http-under-load', dir: 'http', status: 'complete' }] });
    for (const [part, workload] of [['echo', 'rate'], ['http', 'http-rate']]) {
      const dir = join(chainDir(), part);
      const meta = await readMetaJson(dir);
      expect(meta).toMatchObject({ status: 'complete', spec: { preset: `${part}-under-load`, test: true, seed: 11, workload } });
      const rows = await readTrialRows(dir);
      expect(rows).toHaveLength(meta.trials_planned);
      for (const r of rows) expect(r.status, r.error).toBe('ok');
      await expectPinnedHeaders(dir, workload);
      expect(partSection(resumed.stderr, part)).toContain(`${rows.length} trial rows recorded`);
      expect(partSection(resumed.stderr, part)).toContain(join(dir, 'report.html'));
    }
  }, 150_000);

  it('--resume of the complete chain skips both parts; --json holds each part\'s summary document', async () => {
    await sweepChain();
    const { code, stdout, stderr } = await callMain(['sweep', '--resume', chainDir(), '--json']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`== part echo (1 of 2): echo-under-load into ${join(chainDir(), 'echo')} (complete: skipped)\n`);
    expect(stderr).toContain(`== part http (2 of 2): http-under-load into ${join(chainDir(), 'http')} (complete: skipped)\n`);
    const document = JSON.parse(stdout);
    expect(document).toMatchObject({ chain: CHAIN, dir: chainDir(), status: 'complete' });
    expect(document.parts.map((/** @type {any} */ p) => [p.name, p.status, p.document.status, p.document.dir])).toEqual([['echo', 'complete', 'complete', join(chainDir(), 'echo')], ['http', 'complete', 'complete', join(chainDir(), 'http')]]);
    expect(document.parts[1].document.trials).toMatchObject({ failed: 0, ok: (await readTrialRows(join(chainDir(), 'http'))).length });
  }, 150_000);

  it('--resume of a chain refuses what would change it: a --seed other than recorded, a design flag; one line, exit 2, nothing changed', async () => {
    await sweepChain();
    const before = await readFile(join(chainDir(), 'chain.json'), 'utf8');
    const seed = await callMain(['sweep', '--resume', chainDir(), '--seed', '12']);
    expect([seed.code, seed.stdout, seed.stderr]).toEqual([2, '', `udsvstcp: error: --seed 12 differs from what ${join(chainDir(), 'chain.json')} records (seed 11): a resume runs the chain as it began\n`]);
    const sizes = await callMain(['sweep', '--resume', chainDir(), '--sizes', '64']);
    expect([sizes.code, sizes.stdout]).toEqual([2, '']);
    expect(sizes.stderr).toMatch(/^udsvstcp: error: --sizes would change the plan of a part of the chained preset latency-under-load \(echo: echo-under-load, http: http-under-load\); sweep a part's preset alone to change it, e\.g\. udsvstcp sweep echo-under-load --sizes …\n$/);
    expect(await readFile(join(chainDir(), 'chain.json'), 'utf8')).toBe(before);
  }, 150_000);

  it('report DIR rewrites each part\'s report under a line naming the part; --out is refused (one report per directory)', async () => {
    await sweepChain();
    const html = join(chainDir(), 'http', 'report.html');
    const before = (await stat(html)).ino; // the report replaces its files whole
    const { code, stdout, stderr } = await callMain(['report', chainDir(), '--json']);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/^== part echo \(1 of 2\)/m);
    expect(stderr).toContain(`== part http (2 of 2): http-under-load in ${join(chainDir(), 'http')}\n`);
    expect(stderr).toContain(`  ${html}\n`);
    expect((await stat(html)).ino).not.toBe(before);
    expect(JSON.parse(stdout).parts.map((/** @type {any} */ p) => p.document?.status)).toEqual(['complete', 'complete']);
    const refused = await callMain(['report', chainDir(), '--out', tmp.dir]);
    expect([refused.code, refused.stdout]).toEqual([2, '']);
    expect(refused.stderr).toBe(`udsvstcp: error: --out writes one report, and ${chainDir()} holds a chain of 2 sweeps (chain.json); give a part's directory: udsvstcp report ${join(chainDir(), 'echo')} --out …\n`);
  }, 150_000);
});

describe('sweep --server-work and --server-delay: the sweep\'s server spins and waits per request', () => {
  it('every row\'s server CPU per request at least the work, its median at least work and wait, both recorded in meta.json', async () => {
    const out = join(tmp.dir, 'worked');
    // one trial of http in open loop (the presets' sweeps are the chain's, which takes no design flag)
    const { code, stderr } = await callMain(['sweep', '--workload', 'http-rate', '--rates', '500', '--runs', '1', '--server-work', '300us', '--server-delay', '1ms', '--test', '--seed', '11', '--no-probe', '--no-report', '--out', out]);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('; the server spinning 300 µs per request; the server waiting 1 ms before each answer');
    expect((await readMetaJson(out)).spec).toMatchObject({ serverWorkMs: 0.3, serverDelayMs: 1 });
    const rows = await readTrialRows(out);
    expect(rows.map((r) => r.transport).sort()).toEqual(['tcp', 'uds']);
    for (const r of rows) {
      expect(r.status, r.error).toBe('ok');
      expect(Number(r.server_cpu_us_per_req)).toBeGreaterThanOrEqual(300);
      expect(Number(r.resp_p50_us)).toBeGreaterThanOrEqual(1300);
    }
  });
});

describe('sweep --depths auto (--rates auto by its open-loop name): the rates from the closed-loop capacity, measured before the plan is fixed', () => {
  it('measures each transport\'s capacity, offers doubling steps around it with each knee bisected in them, and records the ladder and how it was made', async () => {
    const out = join(tmp.dir, 'auto');
    // no warmup segment in the sweep's trials (its probe's trials have their own): every rate is a trial of two lanes
    const { code, stderr } = await callMain(['sweep', '--workload', 'rate', '--sizes', '64', '--rates', 'auto', '--runs', '1', '--warmup', '0', '--test', '--no-probe', '--no-report', '--out', out]);
    expect(code, stderr).toBe(0);
    const bisected = '(tcp|uds) 64 B kept (none|\\d+/s) missed (none|\\d+/s) \\((\\d+) trials\\)';
    expect(stderr).toMatch(new RegExp(`^--depths auto: echo at depth 16 measured tcp 64 B \\d+/s, uds 64 B \\d+/s; rates offered: doubling steps from 2× the highest, the last at or above 0\\.25× the lowest \\(--test\\); each knee found in short rate trials up or down the ladder from its capacity, then bisected 1×: ${bisected}, ${bisected}$`, 'm'));
    const meta = await readMetaJson(out);
    expect(stderr).toContain(`${meta.design.rates_auto}\n`);
    const capacities = [...stderr.matchAll(/(tcp|uds) 64 B (\d+)\/s[,;]/g)].map((m) => Number(m[2]));
    const knees = [...meta.design.rates_auto.matchAll(new RegExp(bisected, 'g'))].map((m) => ({ transport: m[1], kept: m[2] === 'none' ? null : parseInt(m[2], 10), missed: m[3] === 'none' ? null : parseInt(m[3], 10), trials: Number(m[4]) }));
    expect(knees.map((k) => k.transport)).toEqual(['tcp', 'uds']);
    // the ladder of the capacities it printed: from 2× the highest down to a quarter of the lowest (--test), 4 steps or more
    const ladder = rateLadder(capacities, getWorkload('rate').axes.depth, AUTO_FLOOR_TEST);
    expect(ladder.length).toBeGreaterThanOrEqual(4);
    const depths = /** @type {number[]} */ (meta.spec.depths);
    expect(depths).toEqual(withKnees(ladder, knees)); // with each transport's last rate kept and first missed
    for (const { kept, missed, trials } of knees) {
      expect(trials).toBeGreaterThanOrEqual(1);
      if (kept === null) expect(missed).toBe(ladder[0]); // even the floor missed: nothing to bisect
      else if (missed === null) expect(kept).toBe(ladder[ladder.length - 1]); // even the ceiling kept
      else {
        // one bisection of the doubling step the knee lies in: its kept and missed steps, and the rate between them
        const step = ladder.findIndex((rate) => rate > kept) - 1;
        expect(step).toBeGreaterThanOrEqual(0);
        expect(missed).toBeLessThanOrEqual(ladder[step + 1]);
        expect([kept, missed].filter((rate) => !ladder.includes(rate))).toEqual([Math.round(Math.sqrt(ladder[step] * ladder[step + 1]))]);
      }
    }
    const rows = await readTrialRows(out);
    expect(rows).toHaveLength(2 * depths.length);
    expect(new Set(rows.map((r) => Number(r.depth)))).toEqual(new Set(depths));
    // a resume offers the recorded rates: --depths auto again is refused, saying so, and nothing changes
    const again = await callMain(['sweep', '--resume', out, '--depths', 'auto']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`--depths auto (recorded: [${depths.join(',')}], which a resume offers again) differ from what meta.json records`);
    expect(await readTrialRows(out)).toHaveLength(rows.length);
  }, 60_000);

  it('Ctrl-C while the capacity is measured: the probe ends without bisecting, the ladder is recorded, and the sweep stops as interrupted (exit 130), to resume', async () => {
    const out = join(tmp.dir, 'auto-interrupted');
    let sent = false;
    const { code, stderr } = await startSweep(['--workload', 'rate', '--sizes', '64', '--depths', 'auto', '--runs', '1', '--test', '--no-probe', '--no-report', '--out', out], {
      onStderr: (text, child) => {
        // the wake-up probe's line comes just before the capacity probe, whose own line only after it
        if (!sent && text.includes('wake-up probe:')) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    }).done;
    expect(sent).toBe(true);
    expect(code, stderr).toBe(130);
    expect(stderr.indexOf('--depths auto: echo at depth 16 measured')).toBeGreaterThan(stderr.indexOf('wake-up probe:'));
    expect(stderr).toContain(`Resume with:\n  npx udsvstcp sweep --resume ${out}\n`);
    const meta = await readMetaJson(out);
    expect(meta.status).toBe('interrupted');
    // the Ctrl-C came before the bisection, which it skips: the doubling ladder alone
    expect(meta.design.rates_auto).toMatch(/: tcp 64 B kept none missed none \(0 trials\), uds 64 B kept none missed none \(0 trials\) \(cut short by a Ctrl-C\)$/);
    const capacities = [...meta.design.rates_auto.matchAll(/(tcp|uds) 64 B (\d+)\/s[,;]/g)].map((m) => Number(m[2]));
    expect(meta.spec.depths).toEqual(rateLadder(capacities, getWorkload('rate').axes.depth, AUTO_FLOOR_TEST));
    expect(meta.spec.depths.length).toBeGreaterThanOrEqual(4);
  }, 60_000);

  it('is refused for a closed-loop workload: exit 2, naming --depths and the workloads that take it', async () => {
    const out = join(tmp.dir, 'never');
    const { code, stderr } = await callMain(['sweep', '--workload', 'echo', '--sizes', '64', '--depths', 'auto', '--out', out]);
    expect(code).toBe(2);
    expect(stderr).toBe('udsvstcp: error: --depths auto is for the open-loop workloads (rate, http-rate, proxy-rate, redis-rate, postgres-rate): their rates from the closed-loop capacity; echo takes a list\n');
    expect(existsSync(out)).toBe(false);
  });
});
