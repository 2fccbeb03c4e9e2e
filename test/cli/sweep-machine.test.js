import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/cli.js';
import { callMainLeavingNothing } from '../helpers/in-process.js';

const KEYS = JSON.parse(readFileSync(new URL('../fixtures/machine-keys.json', import.meta.url), 'utf8'));

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

/** @param {string} name e.g. net.core.wmem_default, as the kernel prints it */
const proc = (name) => readFileSync(join('/proc/sys', ...name.split('.')), 'utf8').trim().split(/\s+/).map(Number);

describe.runIf(process.platform === 'linux')('sweep records the machine facts that set the regimes', () => {
  const out = () => join(tmp.dir, 'quick');
  /** @type {Awaited<ReturnType<typeof callMainLeavingNothing>>} */
  let result;
  beforeAll(async () => {
    // main() in this process (the probe's, the server's and the trials' processes are real); one trial is enough
    result = await callMainLeavingNothing(['sweep', 'quick', '--test', '--runs', '1', '--seed', '3', '--out', out()]);
  }, 60_000);

  it('meta.json has the sysctls as the kernel gives them, virtualisation, idle settings and a wake-up probe', async () => {
    expect(result.code, result.stderr).toBe(0);
    const meta = JSON.parse(await readFile(join(out(), 'meta.json'), 'utf8'));
    const { machine } = meta;
    expect(Object.keys(machine).sort()).toEqual(KEYS.machine);
    expect(Object.keys(machine.sysctl).sort()).toEqual(KEYS.sysctl);
    for (const name of KEYS.sysctl) {
      const values = proc(name);
      expect(machine.sysctl[name], name).toEqual(values.length === 1 ? values[0] : values);
    }
    expect(Object.keys(machine.virtualisation).sort()).toEqual(KEYS.virtualisation);
    expect(typeof machine.virtualisation.hypervisor_flag).toBe('boolean');
    expect(Object.keys(machine.idle).sort()).toEqual(KEYS.idle);
    expect(Object.keys(machine.tcp_metrics).sort()).toEqual(KEYS.tcp_metrics);
    expect(Object.keys(machine.wakeup).sort()).toEqual(KEYS.wakeup);
    for (const side of ['same_cpu', 'cross_cpu']) {
      expect(Object.keys(machine.wakeup[side]).sort()).toEqual(KEYS.round_trips);
      expect(Number.isFinite(machine.wakeup[side].p50_us) && machine.wakeup[side].p50_us > 0, side).toBe(true);
      expect(Number.isFinite(machine.wakeup[side].mean_us) && machine.wakeup[side].mean_us > 0, side).toBe(true);
    }
    expect(machine.wakeup.block_ms).toBe(10); // --test keeps it tiny
    expect(meta.sessions[0].machine).toEqual(machine);
    expect(result.stderr).toMatch(/^wake-up probe: same-CPU [\d.]+ µs, cross-CPU [\d.]+ µs/m);
  });

  it('each session records /proc/stat\'s CPU counters at its start and end, and where the CPU time went between them', async () => {
    const meta = JSON.parse(await readFile(join(out(), 'meta.json'), 'utf8'));
    const [session] = meta.sessions;
    expect(Object.keys(session.cpu_times_start).sort()).toEqual(KEYS.cpu_times);
    expect(Object.keys(session.cpu_times_end).sort()).toEqual(KEYS.cpu_times);
    expect(Object.keys(session.cpu).sort()).toEqual(KEYS.cpu);
    const ticks = KEYS.cpu_times.reduce((/** @type {number} */ sum, /** @type {string} */ k) => sum + session.cpu_times_end[k] - session.cpu_times_start[k], 0);
    expect(session.cpu.ticks).toBe(ticks);
    expect(session.cpu.steal).toBe((session.cpu_times_end.steal - session.cpu_times_start.steal) / ticks);
    expect(session.cpu.busy).toBeGreaterThan(0); // the sweep itself ran
    expect(session.cpu.busy + session.cpu.idle + session.cpu.iowait + session.cpu.steal).toBeCloseTo(1, 9);
    const html = await readFile(join(out(), 'report.html'), 'utf8');
    expect(html).toMatch(/<dt>CPU time during the sweep \(\/proc\/stat, all CPUs\)<\/dt><dd>busy [\d.]+ %, idle [\d.]+ %, iowait [\d.]+ %, stolen by the hypervisor [\d.]+ %<\/dd>/);
  });

  it('report.html and summary.md show them in a Machine section', async () => {
    const html = await readFile(join(out(), 'report.html'), 'utf8');
    expect(html).toContain('<h2>Machine</h2>');
    expect(html).toContain(`<dt>net.core.wmem_default</dt><dd>${proc('net.core.wmem_default').join(' ')}</dd>`);
    expect(html).toContain(`<dt>net.ipv4.tcp_wmem</dt><dd>${proc('net.ipv4.tcp_wmem').join(' ')}</dd>`);
    expect(html).toMatch(/<dt>virtualisation<\/dt><dd>[^<]*hypervisor CPU flag (set|not set)/);
    expect(html).toMatch(/<dt>wake-up probe<\/dt><dd>same-CPU [\d.]+ µs, cross-CPU [\d.]+ µs/);
    expect(await readFile(join(out(), 'summary.md'), 'utf8')).toMatch(/## Machine\n\n- virtualisation: .*\n(- .*\n)*- wake-up probe: same-CPU/);
  });
  // --no-probe: on the presets' sweeps in sweep-e2e.test.js
});

describe.runIf(process.platform === 'linux')('a sweep prints what the machine set under its verdicts, even with --quiet', () => {
  it('names the groups with more bytes in flight than UDS\'s send buffer (net.core.wmem_default) holds', async () => {
    const wmem = proc('net.core.wmem_default')[0];
    // 128 KiB x 2 is in flight at depth 2; below wmem_default at depth 1 on any usual kernel
    expect(wmem, 'this test needs net.core.wmem_default between 128 KiB and 256 KiB, as Linux sets it').toBeGreaterThanOrEqual(128 * 1024);
    expect(wmem).toBeLessThan(256 * 1024);
    const dir = join(tmp.dir, 'buffer');
    // the default preset's precision rounds would add runs: --max-time 1 s starts none after the planned ones
    const { code, stderr } = await callMainLeavingNothing(['sweep', '--test', '--sizes', '128KiB', '--depths', '1,2', '--runs', '1', '--packets', '40', '--warmup', '8', '--precision', '100%', '--max-time', '1s', '--no-probe', '--no-report', '--quiet', '--out', dir]);
    expect(code, stderr).toBe(0);
    const lines = stderr.split('\n').filter((l) => l.includes('send buffer'));
    expect(lines).toEqual([expect.stringMatching(new RegExp(`^warning: at 128 KiB depth 2 more bytes are in flight than UDS's send buffer holds \\(net\\.core\\.wmem_default, ${wmem} B here;`))]);
  }, 60_000);
});

describe.runIf(process.platform === 'linux')('run --probe', () => {
  it('runs the wake-up probe before measuring and prints it', async () => {
    const { code, stderr } = await callMainLeavingNothing(['run', '--probe', '--packets', '100', '--warmup', '0']);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/^wake-up probe: (same-CPU [\d.]+ µs, cross-CPU [\d.]+ µs|none \(taskset not found)/m);
  }, 30_000);
});
