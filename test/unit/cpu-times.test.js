import { describe, expect, it } from 'vitest';
import { cpuShares, parseCpuTimes } from '../../lib/core/cpu-times.js';
import { cpuTimeRows, stealWarning } from '../../lib/report/machine.js';

// the first lines of a real /proc/stat (a 2-vCPU guest), and the same a few seconds later
const BEFORE = 'cpu  1676098 2247 361713 186507 4210 0 18131 33086 0 0\ncpu0 838049 1123 180856 93253 2105 0 9065 16543 0 0\nintr 1 2 3\n';
const AFTER = 'cpu  1676198 2247 361813 186807 4210 0 18131 33186 0 0\ncpu0 838099 1123 180906 93403 2105 0 9065 16593 0 0\n';

describe('CPU time from /proc/stat', () => {
  it('reads the aggregate cpu line, not a per-CPU one', () => {
    expect(parseCpuTimes(BEFORE)).toEqual({ user: 1676098, nice: 2247, system: 361713, idle: 186507, iowait: 4210, irq: 0, softirq: 18131, steal: 33086 });
  });

  it('refuses a missing or malformed line: null, never a guess', () => {
    expect(parseCpuTimes('intr 1 2 3\n')).toBeNull();
    expect(parseCpuTimes('cpu  1 2 3\n')).toBeNull();
    expect(parseCpuTimes('cpu  1 2 3 x 5 6 7 8\n')).toBeNull();
  });

  it('gives the shares of all ticks between two readings: busy, idle, iowait, steal', () => {
    // 600 ticks: user 100 + system 100 busy, idle 300, steal 100
    expect(cpuShares(parseCpuTimes(BEFORE), parseCpuTimes(AFTER))).toEqual({ ticks: 600, busy: 200 / 600, idle: 300 / 600, iowait: 0, steal: 100 / 600 });
  });

  it('is null when a reading is missing, a counter went backwards, or no tick passed', () => {
    const before = parseCpuTimes(BEFORE);
    expect(cpuShares(null, before)).toBeNull();
    expect(cpuShares(parseCpuTimes(AFTER), before)).toBeNull();
    expect(cpuShares(before, before)).toBeNull();
  });
});

describe('CPU time in the report', () => {
  const session = (/** @type {number} */ steal) => ({ cpu: { ticks: 1000, busy: 0.6 - steal, idle: 0.4, iowait: 0, steal } });

  it('a row per sweep, each session named where there are several; nothing without figures', () => {
    expect(cpuTimeRows([session(0.01)])).toEqual([['CPU time during the sweep (/proc/stat, all CPUs)', 'busy 59.0 %, idle 40.0 %, iowait 0.0 %, stolen by the hypervisor 1.0 %']]);
    expect(cpuTimeRows([session(0.01), { cpu: null }, session(0.05)])[0][1]).toBe('session 0: busy 59.0 %, idle 40.0 %, iowait 0.0 %, stolen by the hypervisor 1.0 %; session 2: busy 55.0 %, idle 40.0 %, iowait 0.0 %, stolen by the hypervisor 5.0 %');
    expect(cpuTimeRows(undefined)).toEqual([]);
    expect(cpuTimeRows([{ cpu: { busy: 'x' } }])).toEqual([]);
  });

  it('warns when a session lost more than 2 % of the CPU time to the host, naming the worst', () => {
    expect(stealWarning([session(0.02)])).toBeNull();
    expect(stealWarning([session(0.021), session(0.064)])).toMatch(/^the hypervisor took 6\.4 % of this machine's CPU time during the sweep \(steal in \/proc\/stat\)/);
    expect(stealWarning(null)).toBeNull();
  });
});
