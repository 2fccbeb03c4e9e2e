import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeWakeup } from '../../lib/machine/wakeup-probe.js';
import { findProgram } from '../../lib/core/programs.js';
import { makeTempDir } from '../helpers/cli.js';

const KEYS = JSON.parse(readFileSync(new URL('../fixtures/machine-keys.json', import.meta.url), 'utf8'));

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
/** @type {string | undefined} */
let savedTmpdir;
beforeAll(async () => {
  tmp = await makeTempDir();
  savedTmpdir = process.env.TMPDIR;
  process.env.TMPDIR = tmp.dir; // the probe's socket directory goes here, where nothing else writes
});
afterAll(async () => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  await tmp.remove();
});

/** Processes whose command line names this test's directory (the probe's echo and ping ends). */
function peersAlive() {
  const alive = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(tmp.dir)) alive.push(pid);
    } catch {
      // gone meanwhile
    }
  }
  return alive;
}

describe.runIf(process.platform === 'linux' && findProgram('taskset'))('the wake-up probe', () => {
  it('measures 1-byte round trips on one CPU and across two, and leaves nothing behind', async () => {
    const { wakeup, note } = await probeWakeup({ blockMs: 5, blocks: 2 });
    expect(wakeup, note ?? '').not.toBeNull();
    const w = /** @type {import('../../lib/machine/wakeup-probe.js').Wakeup} */ (wakeup);
    expect(Object.keys(w).sort()).toEqual(KEYS.wakeup);
    for (const figures of [w.same_cpu, w.cross_cpu]) {
      expect(Object.keys(figures).sort()).toEqual(KEYS.round_trips);
      expect(figures.round_trips).toBeGreaterThanOrEqual(1);
      for (const key of ['mean_us', 'p10_us', 'p50_us', 'p90_us']) expect(figures[/** @type {'mean_us'} */ (key)]).toBeGreaterThan(0);
      expect(figures.p10_us).toBeLessThanOrEqual(figures.p50_us);
      expect(figures.p50_us).toBeLessThanOrEqual(figures.p90_us);
    }
    expect(w.wake_cost_us).toBeCloseTo(w.cross_cpu.p50_us - w.same_cpu.p50_us, 1);
    // the busy baseline, where chrt and timeout exist and its SCHED_IDLE spinners got a CPU; else a note says why not
    if (w.cross_cpu_busy) expect(w.cross_cpu_busy.round_trips).toBeGreaterThanOrEqual(1);
    else expect(w.busy_note).toMatch(/chrt not found|timeout not found|spinners did not start/);
    expect(note).toBe(w.busy_note);
    expect(readdirSync(tmp.dir)).toEqual([]);
    expect(peersAlive()).toEqual([]);
  });

  it('keeps the same- and cross-CPU figures when the busy baseline cannot run, and says why', async () => {
    // a PATH whose chrt fails at once (as where SCHED_IDLE is refused); taskset and timeout are the real ones
    const bin = join(tmp.dir, 'bin');
    mkdirSync(bin);
    for (const name of ['taskset', 'timeout']) symlinkSync(/** @type {string} */ (findProgram(name)), join(bin, name));
    writeFileSync(join(bin, 'chrt'), '#!/bin/sh\necho "chrt: refused" >&2\nexit 1\n', { mode: 0o755 });
    const path = process.env.PATH;
    process.env.PATH = bin;
    try {
      const { wakeup, note } = await probeWakeup({ blockMs: 5, blocks: 2 });
      expect(wakeup?.same_cpu.round_trips).toBeGreaterThanOrEqual(1);
      expect(wakeup?.cross_cpu.round_trips).toBeGreaterThanOrEqual(1);
      expect(wakeup?.cross_cpu_busy).toBeNull();
      expect(wakeup?.busy_note).toBe('a spinner failed (chrt: refused): no busy baseline');
      expect(note).toBe(wakeup?.busy_note);
    } finally {
      process.env.PATH = path;
      rmSync(bin, { recursive: true });
    }
    expect(readdirSync(tmp.dir)).toEqual([]);
    expect(peersAlive()).toEqual([]);
  });

  it('ends at once on a signal: no figures, a note, no process or file left', async () => {
    const controller = new AbortController();
    // abort once its echo end listens: its other processes are starting or measuring (blocks of 5 s)
    const watcher = watch(tmp.dir, (_, dirName) => {
      watcher.close();
      const dir = join(tmp.dir, String(dirName));
      const inner = watch(dir, (__, name) => {
        if (name !== 'p.sock') return;
        inner.close();
        controller.abort();
      });
      // made before the watch began (a loaded machine: the CI run of Node 26 beside other tests timed the probe out)
      if (existsSync(join(dir, 'p.sock'))) {
        inner.close();
        controller.abort();
      }
    });
    const { wakeup, note } = await probeWakeup({ blockMs: 5000, blocks: 2, signal: controller.signal });
    expect(controller.signal.aborted).toBe(true);
    expect(wakeup).toBeNull();
    expect(note).toBe('wake-up probe failed: interrupted');
    expect(readdirSync(tmp.dir)).toEqual([]);
    expect(peersAlive()).toEqual([]);
  });
});
