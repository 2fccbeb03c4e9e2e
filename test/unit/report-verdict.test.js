import { describe, expect, it } from 'vitest';
import { FIGURES } from '../../lib/workloads/figures.js';
import { classify, percentUp, singleRunWords, toVerdict } from '../../lib/report/verdict.js';
import { buildFindings } from '../../lib/report/findings.js';
import { okRow, errorRow } from '../helpers/results-fixture.js';

const msgs = FIGURES.msgs_per_s;
/**
 * @param {number} size
 * @param {number} value
 * @param {number | null} low
 * @param {number | null} high
 * @param {number} [n]
 */
const at = (size, value, low, high, n = 10) => ({ size_bytes: size, ratio: { value, low, high, n } });

describe('verdicts in plain words', () => {
  it('classify each size by its 95 % CI alone', () => {
    expect(classify(at(1, 1.4, 1.35, 1.46).ratio)).toBe('above');
    expect(classify(at(1, 0.8, 0.7, 0.9).ratio)).toBe('below');
    expect(classify(at(1, 1.0, 0.97, 1.02).ratio)).toBe('same');
    expect(classify(at(1, 1.0, 0.8, 1.2).ratio)).toBe('same');
    expect(classify(at(1, 1.1, 0.57, 1.74).ratio)).toBe('unclear');
    expect(classify(at(1, 1.1, null, null, 1).ratio)).toBe('single');
    expect(classify(null)).toBe('none');
  });

  it('say "no difference larger than X %" with X the far end of the CI from 1, rounded up', () => {
    expect(percentUp(0.03)).toBe(3); // 1.03 − 1, float noise and all
    expect(percentUp(0.0301)).toBe(4);
    expect(percentUp(0.002)).toBe(1);
    expect(toVerdict({ depth: 1, sizes: [at(65536, 1.0, 0.97, 1.02)] }, msgs)).toBe('depth 1: no difference larger than 3 % at 64 KiB (95 % CI 0.97–1.02).');
    expect(toVerdict({ depth: 1, sizes: [at(16384, 1.01, 0.99, 1.02), at(65536, 0.99, 0.955, 1.01)] }, msgs)).toBe('depth 1: no difference larger than 5 % at 16 KiB–64 KiB.');
  });

  it('name the ratio and its CI where the CI excludes 1, merging neighbouring sizes', () => {
    expect(toVerdict({ depth: 1, sizes: [at(64, 1.4, 1.35, 1.46)] }, msgs)).toBe('depth 1: UDS gives 1.40× the messages per second of TCP at 64 B (95 % CI 1.35–1.46).');
    expect(toVerdict({ depth: 16, sizes: [at(1, 0.9, 0.85, 0.95), at(64, 1.2, 1.1, 1.3), at(1024, 1.5, 1.3, 1.7), at(65536, 1.0, 0.98, 1.01)] }, msgs))
      .toBe('depth 16: UDS gives 0.90× the messages per second of TCP at 1 B (95 % CI 0.85–0.95); UDS gives 1.20–1.50× the messages per second of TCP at 64 B–1 KiB (every 95 % CI above 1); no difference larger than 2 % at 64 KiB (95 % CI 0.98–1.01).');
  });

  it('call wide CIs undecided, single runs single, and missing pairs missing', () => {
    expect(toVerdict({ depth: 1, sizes: [at(1, 1.1, 0.57, 1.74), at(4, 1.1, 0.8, 1.3)] }, msgs)).toBe('depth 1: undecided at 1 B–4 B (widest 95 % CI 0.57–1.74: more runs would narrow it).');
    expect(toVerdict({ depth: 16, sizes: [at(1, 2.1, 0.0046, 958.95)] }, msgs)).toBe('depth 16: undecided at 1 B (95 % CI 0.0046–958.95: more runs would narrow it).');
    expect(toVerdict({ depth: 1, sizes: [at(1, 1.08, null, null, 1)] }, msgs)).toBe('depth 1: one run only at 1 B: UDS 1.08× TCP, no confidence interval (use --runs 2 or more).');
    // one run where the sweep planned more: what kept the others, not --runs
    const retry = 'npx udsvstcp sweep --resume r --retry-failed';
    expect(singleRunWords({ runs: 1, stopped: true, retry })).toBe('use --runs 2 or more');
    expect(singleRunWords({ runs: null, stopped: true, retry })).toBe('use --runs 2 or more');
    expect(toVerdict({ depth: 1, sizes: [at(1, 1.08, null, null, 1)] }, msgs, { single: singleRunWords({ runs: 2, stopped: true, retry }) }))
      .toBe('depth 1: one run only at 1 B: UDS 1.08× TCP, no confidence interval (2 runs planned: the sweep stopped before the others; resume it, as said below).');
    expect(toVerdict({ depth: 1, sizes: [at(1, 1.08, null, null, 1)] }, msgs, { single: singleRunWords({ runs: 3, stopped: false, retry }) }))
      .toBe(`depth 1: one run only at 1 B: UDS 1.08× TCP, no confidence interval (3 runs planned, the others failed: ${retry} measures them again).`);
    expect(toVerdict({ depth: 1, sizes: [{ size_bytes: 256, ratio: null }] }, msgs)).toBe('depth 1: no comparison at 256 B (no run in which both transports succeeded).');
    expect(toVerdict({ depth: 1, sizes: [] }, msgs)).toBe('depth 1: nothing measured.');
  });

  it('say what a transport measured alone measured, and that nothing is compared, in words that are no failure', () => {
    const sizes = [{ size_bytes: 64, measured: true }, { size_bytes: 1024, measured: true }];
    expect(toVerdict({ depth: 1, sizes: [], alone: { transport: 'uds', sizes } }, msgs)).toBe('depth 1: UDS alone at 64 B–1 KiB: its messages per second measured, nothing compared (there is no TCP baseline to compare it with).');
    expect(toVerdict({ depth: 1, sizes: [], alone: { transport: 'tcp', sizes } }, msgs)).toBe('depth 1: TCP alone at 64 B–1 KiB: its messages per second measured, nothing compared (TCP is the baseline, and no other transport was measured against it).');
    expect(toVerdict({ depth: 1, sizes: [], alone: { transport: 'worker', sizes: [sizes[0], { size_bytes: 1024, measured: false }] } }, msgs)).toBe('depth 1: worker alone at 64 B: its messages per second measured, nothing compared (there is no TCP baseline to compare it with); no successful trial at 1 KiB.');
    expect(toVerdict({ depth: 1, sizes: [], alone: { transport: 'uds', sizes: [{ size_bytes: 64, measured: false }] } }, msgs)).toBe('depth 1: UDS alone: no successful trial, nothing measured.');
  });

  it('come from the findings of a sweep of one transport as such, and of a failed TCP as a failure', () => {
    for (const transport of ['uds', 'worker', 'tcp']) {
      const findings = buildFindings({ trials: [okRow(0, transport, 64, 1, 1000), okRow(1, transport, 64, 1, 1100)], meta: { status: 'complete' } });
      expect(findings.sections.map((s) => s.verdict)).toEqual([expect.stringMatching(new RegExp(`^depth 1: \\S+ alone at 64 B: its messages per second measured, nothing compared`))]);
      expect(findings.warnings.join('\n')).not.toMatch(/no comparison|both transports/);
    }
    const failed = buildFindings({ trials: [errorRow(0, 'tcp', 64, 1, 'boom'), okRow(0, 'uds', 64, 1, 1000)], meta: { status: 'complete' } });
    expect(failed.sections[0].verdict).toBe('depth 1: no comparison at 64 B (no run in which both transports succeeded).');
  });

  it('speak of whatever figure is primary', () => {
    expect(toVerdict({ depth: 1, sizes: [at(64, 0.71, 0.68, 0.74)] }, FIGURES.rtt_p50_us)).toBe('depth 1: UDS gives 0.71× the median round-trip time of TCP at 64 B (95 % CI 0.68–0.74).');
  });
});

describe('the verdict of a sweep with the server\'s own work per request (--server-work, --server-delay)', () => {
  // UDS gives 1.25× TCP's messages per second, run by run within a few %, and so 0.8× its server CPU per message
  const trials = [1000, 1010, 990].flatMap((msgs, run) => [okRow(run, 'tcp', 64, 1, msgs), okRow(run, 'uds', 64, 1, msgs * [1.25, 1.2, 1.3][run])]);
  const verdictOf = (/** @type {Record<string, any>} */ spec) => buildFindings({ trials, meta: { status: 'complete', spec } }).sections[0].verdict;

  it('says what UDS gave or saved of the primary figure and of the server CPU, each with its 95 % CI', () => {
    const { sections } = buildFindings({ trials, meta: { status: 'complete' } });
    const cpu = /** @type {any} */ (sections[0].sizes[0].figures.server_cpu_us_per_msg.ratio);
    const msgs = /** @type {any} */ (sections[0].sizes[0].figures.msgs_per_s.ratio);
    expect(cpu.value).toBeLessThan(1);
    const pct = (/** @type {number} */ v) => Math.abs((1 - v) * 100).toFixed(0);
    const work = `With 200 µs of server work per request, UDS gave ${pct(msgs.value)} % (95 % CI ${pct(msgs.low)}–${pct(msgs.high)} %) more msgs/s and saved ${pct(cpu.value)} % (95 % CI ${pct(cpu.high)}–${pct(cpu.low)} %) of the server CPU µs/msg of TCP at 64 B.`;
    expect(verdictOf({ serverWorkMs: 0.2, serverDelayMs: null })).toBe(`${verdictOf({})} ${work}`);
    expect(verdictOf({ serverWorkMs: 0.2, serverDelayMs: 1 })).toContain('With 200 µs of server work and 1 ms of server wait per request, UDS gave');
    expect(verdictOf({ serverWorkMs: null, serverDelayMs: 0.5 })).toContain('With 0.5 ms of server wait per request, UDS gave');
  });

  it('says nothing of it without server work', () => {
    expect(verdictOf({ serverWorkMs: null, serverDelayMs: null })).not.toContain('server work');
    expect(verdictOf({})).toMatch(/^depth 1: UDS gives 1\.\d\d× the messages per second of TCP at 64 B \(95 % CI [\d.]+–[\d.]+\)\.$/);
  });
});
