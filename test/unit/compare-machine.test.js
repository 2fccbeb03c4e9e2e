import { describe, expect, it } from 'vitest';
import { describeDifferences, machineDifferences } from '../../lib/report/compare.js';

/**
 * A meta.json with the machine facts that set the regimes.
 * @param {{ wmem?: number, vm?: string, wake?: number, steal?: number[] }} facts
 */
const meta = ({ wmem = 212992, vm = 'kvm', wake, steal = [] }) => ({
  machine: { sysctl: { 'net.core.wmem_default': wmem, 'net.ipv4.tcp_wmem': [4096, 16384, 4194304] }, virtualisation: { vm }, idle: { cpuidle_driver: 'haltpoll' }, wakeup: wake === undefined ? null : { wake_cost_us: wake } },
  sessions: steal.map((s) => ({ cpu: { steal: s } })),
});

describe('compare: the machine facts that differ', () => {
  it('names each differing sysctl and the virtualisation, and gives both wake-up costs and the worst steal', () => {
    expect(machineDifferences(meta({ wake: 319.6, steal: [0.102, 0.05] }), meta({ wmem: 4194304, vm: 'none', wake: 11.74, steal: [0.004] }))).toEqual([
      'net.core.wmem_default: A 212992, B 4194304',
      'virtualisation: A "kvm", B "none"',
      'wake-up cost per round trip (probe): A 319.6 µs, B 11.7 µs',
      'CPU time stolen by the hypervisor (most of any session): A 10.2 %, B 0.4 %',
    ]);
  });

  it('says nothing of facts that agree or that neither recorded; unknown where one did not', () => {
    expect(machineDifferences(meta({}), meta({}))).toEqual([]);
    expect(machineDifferences({}, {})).toEqual([]);
    expect(machineDifferences(meta({ steal: [0.02] }), {})).toEqual([
      'net.core.wmem_default: A 212992, B not recorded',
      'net.ipv4.tcp_wmem: A [4096,16384,4194304], B not recorded',
      'virtualisation: A "kvm", B not recorded',
      'cpuidle driver: A "haltpoll", B not recorded',
      'CPU time stolen by the hypervisor (most of any session): A 2.0 %, B unknown',
    ]);
  });

  it('leaves out a wake-up cost or steal the two sweeps share, as shown (rounded alike)', () => {
    expect(machineDifferences(meta({ wake: 27.51, steal: [0.001] }), meta({ wake: 27.49, steal: [0.0012] }))).toEqual([]);
    expect(machineDifferences(meta({ wake: 27.5, steal: [0.001] }), meta({ wake: 27.5, steal: [0.004] }))).toEqual(['CPU time stolen by the hypervisor (most of any session): A 0.1 %, B 0.4 %']);
  });

  it('say of a spec key an older sweep did not record that it did not, not that it was null', () => {
    const spec = (/** @type {Record<string, unknown>} */ keys) => ({ spec: { preset: 'quick', runs: 3, ...keys } });
    expect(describeDifferences(spec({}), spec({ noDelay: false, seed: null }))).toEqual(['noDelay: A not recorded, B false', 'seed: A not recorded, B null']);
    expect(describeDifferences(spec({ seed: null }), spec({ seed: 7 }))).toEqual(['seed: A null, B 7']);
  });

  it("name the servers' and C clients' versions where they differ, every session's", async () => {
    const { buildFindings } = await import('../../lib/report/findings.js');
    const ran = (/** @type {string[]} */ ...versions) => ({ spec: { preset: 'redis' }, sessions: versions.map((version) => ({ executables: { 'redis-server': { path: '/x/redis-server', version, from: 'PATH' } } })) });
    expect(describeDifferences(ran('7.0.15'), ran('6.0.16'))).toEqual(['redis-server: A "7.0.15", B "6.0.16"']);
    expect(describeDifferences(ran('7.0.15'), ran('7.0.15', '6.0.16'))).toEqual(['redis-server: A "7.0.15", B "7.0.15 + 6.0.16"']);
    expect(describeDifferences(ran('7.0.15'), ran('7.0.15'))).toEqual([]);
    // and the report of a sweep whose resume ran another version says its runs are pooled
    expect(buildFindings({ trials: [], meta: ran('7.0.15', '6.0.16') }).warnings).toContain('sessions of this sweep ran redis-server 7.0.15, 6.0.16 (a resume ran another): their runs are pooled; meta.json sessions[].executables says which ran when');
  });

  it('are part of the differences compare prints', () => {
    expect(describeDifferences(meta({}), meta({ wmem: 4194304 }))).toContain('net.core.wmem_default: A 212992, B 4194304');
  });
});
