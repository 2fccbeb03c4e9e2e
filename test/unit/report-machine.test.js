import { Writable } from 'node:stream';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { printSweepReport } from '../../lib/commands/report.js';
import { writeReport } from '../../lib/report/report-files.js';
import { buildFindings } from '../../lib/report/findings.js';
import { toHtml } from '../../lib/report/html.js';
import { describeWakeup, machineRows, wakeupFinding } from '../../lib/report/machine.js';
import { toMarkdown, toReportText } from '../../lib/report/report-text.js';
import { ENVIRONMENT, errorRow, okRow, writeResults } from '../helpers/results-fixture.js';
import { useTempDir } from '../helpers/temp.js';

const tmp = useTempDir({ each: true });

// depth-1 mean round trips: TCP 1e6 / 12 500 = 80 µs, UDS 1e6 / 16 000 = 62.5 µs
const trials = [okRow(0, 'tcp', 64, 1, 12500), okRow(0, 'uds', 64, 1, 16000), okRow(1, 'tcp', 64, 1, 12500), okRow(1, 'uds', 64, 1, 16000), okRow(0, 'tcp', 64, 16, 90000), okRow(0, 'uds', 64, 16, 150000)];

/** @param {number} same @param {number} cross */
const probe = (same, cross) => ({
  method: 'test', block_ms: 10, blocks: 2,
  same_cpu: { cpus: 'ping cpu 0, echo cpu 0', round_trips: 100, mean_us: same, p10_us: same, p50_us: same, p90_us: same },
  cross_cpu: { cpus: 'ping cpu 1, echo cpu 0', round_trips: 100, mean_us: cross, p10_us: cross, p50_us: cross, p90_us: cross },
  cross_cpu_busy: null, busy_note: 'chrt not found (Linux util-linux): no busy baseline', wake_cost_us: cross - same, idle_exit_cost_us: null, elapsed_ms: 300, load_1m: 0.4, cpu_count: 2,
});

const MACHINE = {
  sysctl: { 'net.core.wmem_default': 212992, 'net.ipv4.tcp_wmem': [4096, 16384, 4194304] },
  virtualisation: { hypervisor_flag: true, vm: 'kvm', container: 'none' },
  idle: { cpuidle_driver: 'haltpoll', cpuidle_governor: 'haltpoll', idle_states: [{ name: 'POLL', latency_us: 0, disabled: false }, { name: 'haltpoll idle', latency_us: 1, disabled: false }], guest_halt_poll_ns: 200000, kvm_halt_poll_ns: null },
  tcp_metrics: { loopback_entries: 1, loopback: '127.0.0.1 age 1sec cwnd 10' },
  wakeup: probe(12, 60),
  wakeup_note: 'chrt not found (Linux util-linux): no busy baseline',
};
const WARNING = "at depth 1, about 60 % (TCP) and 77 % (UDS) of a round trip here is waking an idle CPU (probe: same-CPU 12.0 µs, cross-CPU 60.0 µs); depth-1 ratios mostly measure this machine's wake-ups";

/**
 * @param {Record<string, any>} machine
 * @param {string} [pin] the sweep's --pin
 */
const findingsWith = (machine, pin = 'none') => buildFindings({ trials, meta: { status: 'complete', trials_planned: 6, environment: ENVIRONMENT, spec: { pin }, pinning: pin === 'same' ? 'same: server and client cpu 0' : pin === 'split' ? 'split: server cpu 0, client cpu 1' : 'none', machine } });
const ONE_CPU = "both ends of every round trip ran on one CPU (--pin same): no cross-CPU wake-up is paid, so the wake-up probe's cost (about 48.0 µs with the ends on two CPUs) is not part of these round trips";

describe('the machine facts in the report', () => {
  it('warns when waking an idle CPU is most of a depth-1 round trip, with each transport\'s share', () => {
    const findings = findingsWith(MACHINE);
    expect(findings.warnings).toContain(WARNING);
    expect(toReportText(findings)).toContain(`warning: ${WARNING}`);
  });

  it('says nothing of it when the wake-up cost is a minor share, unknown, or measured on a busy machine', () => {
    expect(findingsWith({ ...MACHINE, wakeup: probe(12, 32) }).warnings.join('\n')).not.toMatch(/waking an idle CPU/); // 25 % and 32 %
    expect(findingsWith({ ...MACHINE, wakeup: probe(40, 30) }).warnings.join('\n')).not.toMatch(/waking an idle CPU/);
    expect(findingsWith({ ...MACHINE, wakeup: null, wakeup_note: 'taskset not found' }).warnings.join('\n')).not.toMatch(/waking an idle CPU/);
    // a busy machine's CPUs are seldom idle: what the probe saw was waiting for a CPU
    const busy = { ...MACHINE, wakeup: { ...probe(12, 60), load_1m: 2.5 } };
    const findings = findingsWith(busy);
    expect(findings.warnings.join('\n')).not.toMatch(/waking an idle CPU/);
    expect(machineRows(busy, findings.sections).map(([label]) => label)).not.toContain('wake-up share of the depth-1 round trip');
  });

  it('with --pin same gives no wake-up share and no warning, but says once that both ends share a CPU: in the sweep, report, summary.md and report.html', () => {
    const findings = findingsWith(MACHINE, 'same');
    expect(findings.warnings.join('\n')).not.toMatch(/waking an idle CPU/);
    expect(findings.machineWarnings).toEqual([]);
    expect(toReportText(findings)).not.toMatch(/waking an idle CPU/);
    expect(findings.machineNotes).toEqual([ONE_CPU]); // what the sweep and report print under the verdicts
    const text = toReportText(findings);
    expect(text.split(ONE_CPU)).toHaveLength(2);
    expect(text).toContain(`note: ${ONE_CPU}`);
    const md = toMarkdown(findings);
    expect(md).not.toMatch(/round trip here is waking an idle CPU|% of 80\.0 µs/); // neither the warning nor the shares
    expect(md.split(ONE_CPU)).toHaveLength(2);
    expect(md).toContain(`- wake-up share of the depth-1 round trip: none: ${ONE_CPU}\n`);
    const html = toHtml(findings, []);
    expect(html).not.toMatch(/round trip here is waking an idle CPU|% of 80\.0 µs/);
    expect(html.split(ONE_CPU.replace(/'/g, '&#39;'))).toHaveLength(2);
    expect(machineRows(MACHINE, findings.sections, 'same: server and client cpu 0').at(-1)).toEqual(['wake-up share of the depth-1 round trip', `none: ${ONE_CPU}`]);
    // split and none are unpinned as far as a wake-up goes: the warning stands
    expect(findingsWith(MACHINE, 'split').warnings).toContain(WARNING);
    expect(findingsWith(MACHINE, 'split').machineNotes).toEqual([]);
  });

  it('a --pin same sweep ends with the note, once, and no wake-up warning (lib/commands/report.js printSweepReport, on hand-made results)', async () => {
    await writeResults(tmp.dir, trials, { status: 'complete', trials_planned: 6, environment: ENVIRONMENT, spec: { pin: 'same' }, pinning: 'same: server and client cpu 0', machine: MACHINE });
    let stderr = '';
    const stream = new Writable({ write: (chunk, _encoding, done) => { stderr += chunk; done(); } });
    const report = await writeReport(tmp.dir);
    printSweepReport(report, { stderr: stream, chalk: new Chalk({ level: 0 }) });
    expect(report.findings.machineNotes).toEqual([ONE_CPU]);
    expect(stderr.split(ONE_CPU)).toHaveLength(2);
    expect(stderr).toContain(`note: ${ONE_CPU}\n`);
    expect(stderr).not.toMatch(/waking an idle CPU/);
  }, 60_000);

  it('takes the pinning as an argument, for run as for the report', () => {
    const rtts = [{ transport: 'tcp', size_bytes: 64, rtt_us: 80 }, { transport: 'uds', size_bytes: 64, rtt_us: 62.5 }];
    expect(wakeupFinding(rtts, MACHINE, null)).toMatchObject({ warning: WARNING, note: null });
    expect(wakeupFinding(rtts, MACHINE, 'same')).toEqual({ shares: [], warning: null, note: ONE_CPU });
    expect(wakeupFinding(rtts, { ...MACHINE, wakeup: probe(40, 30) }, 'same')).toEqual({ shares: [], warning: null, note: null }); // no wake-up cost seen: nothing to say
  });

  it('lists the sysctls, virtualisation, idle settings, the probe and the shares as rows', () => {
    const findings = findingsWith(MACHINE);
    expect(machineRows(MACHINE, findings.sections)).toEqual([
      ['virtualisation', 'kvm; hypervisor CPU flag set'],
      ['cpuidle', 'driver haltpoll, governor haltpoll; cpu0 states: POLL 0 µs, haltpoll idle 1 µs'],
      ['halt polling', 'guest_halt_poll_ns 200000, kvm halt_poll_ns unknown'],
      ['net.core.wmem_default', 212992], // a number in meta.json stays one (a numeric cell in results.xlsx)
      ['net.ipv4.tcp_wmem', '4096 16384 4194304'],
      ['tcp_metrics 127.0.0.1', '1 cached entry'],
      ['wake-up probe', 'same-CPU 12.0 µs, cross-CPU 60.0 µs (median 1-byte round trips, Node over UDS); waking an idle CPU adds about 48.0 µs per round trip'],
      ['wake-up share of the depth-1 round trip', 'TCP 64 B 60 % of 80.0 µs; UDS 64 B 77 % of 62.5 µs'],
    ]);
  });

  it('says why there is no probe, and when a busy machine makes it say little', () => {
    expect(describeWakeup({ wakeup: null, wakeup_note: 'not run: --no-probe' })).toBe('wake-up probe: none (not run: --no-probe)');
    expect(describeWakeup({ wakeup: { ...probe(500, 400), load_1m: 9.5 } })).toBe('wake-up probe: same-CPU 500 µs, cross-CPU 400 µs (median 1-byte round trips, Node over UDS); cross-CPU no slower than same-CPU: no wake-up cost seen; the machine was busy (load 9.5 on 2 CPUs), its CPUs seldom idle, so these figures say little about waking an idle one');
  });

  it('shows them in report.html and summary.md', () => {
    const findings = findingsWith(MACHINE);
    const html = toHtml(findings, []);
    expect(html).toContain('<h2>Machine</h2>');
    expect(html).toContain('<dt>net.core.wmem_default</dt><dd>212992</dd>');
    expect(html).toContain('<dt>virtualisation</dt><dd>kvm; hypervisor CPU flag set</dd>');
    expect(html).toContain(`<li>${WARNING.replace(/'/g, '&#39;')}</li>`);
    const md = toMarkdown(findings);
    expect(md).toContain('## Machine\n\n- virtualisation: kvm; hypervisor CPU flag set\n');
    expect(md).toContain('- net.core.wmem\\_default: 212992\n');
  });

  it('leaves the section out of a results directory from before machine facts', () => {
    const findings = buildFindings({ trials, meta: { status: 'complete', environment: ENVIRONMENT } });
    expect(toHtml(findings, [])).not.toContain('<h2>Machine</h2>');
    expect(toMarkdown(findings)).not.toContain('## Machine');
  });
});

describe('the warnings a sweep ends with (lib/commands/report.js printSweepReport, on hand-made results)', () => {
  it("are those `report DIR` gives, the noisy groups' too, but those of the sweep's state, which it says in its own closing lines; with --quiet too", async () => {
    // interrupted, one trial failed, and UDS's msgs/s vary by far more than 5 % between runs
    const rows = [okRow(0, 'tcp', 64, 1, 10000), okRow(0, 'uds', 64, 1, 12000), okRow(1, 'tcp', 64, 1, 10100), okRow(1, 'uds', 64, 1, 15000), okRow(2, 'tcp', 64, 1, 9900), errorRow(2, 'uds', 64, 1, 'boom')];
    await writeResults(tmp.dir, rows, { status: 'interrupted', trials_planned: 8, environment: ENVIRONMENT, spec: { sizes: [64], depths: [1], transports: ['tcp', 'uds'], runs: 4 }, pinning: 'split: server cpu 0, client cpu 1' });
    const report = await writeReport(tmp.dir);
    /** the warning lines of a text @param {string} text */
    const warningsOf = (text) => text.split('\n').filter((line) => line.startsWith('warning: '));
    /** @param {boolean} quiet */
    const printed = (quiet) => {
      let stderr = '';
      const stream = new Writable({ write: (chunk, _encoding, done) => { stderr += chunk; done(); } });
      printSweepReport(report, { stderr: stream, chalk: new Chalk({ level: 0 }), quiet });
      return warningsOf(stderr);
    };
    const reported = warningsOf(toReportText(report.findings));
    expect(reported.join('\n')).toMatch(/groups' msgs\/s vary by more than 5 %/);
    expect(report.findings.stateWarnings).toEqual([expect.stringMatching(/^the sweep was interrupted: /), expect.stringMatching(/^1 of 6 trials failed/)]);
    expect(printed(false)).toEqual(reported.filter((w) => !report.findings.stateWarnings.includes(w.slice('warning: '.length))));
    expect(printed(false)).toHaveLength(reported.length - 2);
    // --quiet leaves errors and warnings: the same warnings (it kept only the machine's)
    expect(printed(true)).toEqual(printed(false));
  }, 60_000);
});
