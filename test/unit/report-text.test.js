import { describe, expect, it } from 'vitest';
import { buildFindings } from '../../lib/report/findings.js';
import { toMarkdown, toReportText, toVerdictText } from '../../lib/report/report-text.js';
import { ENVIRONMENT, okRow } from '../helpers/results-fixture.js';

// Trial rows only say which groups were planned and ran; the figures come from these summary rows.
const trials = [okRow(0, 'tcp', 64, 1, 1), okRow(0, 'uds', 64, 1, 1), okRow(0, 'tcp', 1024, 1, 1), okRow(0, 'uds', 1024, 1, 1), okRow(0, 'tcp', 64, 16, 1), okRow(0, 'uds', 64, 16, 1)];

/**
 * Summary rows in the planned shape (unit, geomean, cv as a fraction) …
 * @param {number} size
 * @param {number} depth
 * @param {string} transport
 * @param {string} metric
 * @param {number} value
 * @param {[number, number] | null} ci
 * @param {Record<string, any>} [extra]
 */
const s = (size, depth, transport, metric, value, ci, extra = {}) => ({
  workload: 'echo', size_bytes: size, depth, transport, metric, unit: transport === 'uds/tcp' ? 'ratio' : 'x', n: ci ? 3 : 1,
  mean: value * 1.01, geomean: value, median: value, sd: null, cv: 0.02, min: value, max: value,
  ci95_low: ci?.[0] ?? null, ci95_high: ci?.[1] ?? null, outliers: 0, significant: transport === 'uds/tcp' && ci ? (ci[0] > 1 || ci[1] < 1 ? 'yes' : 'no') : null, ...extra,
});
const summary = [
  s(64, 1, 'tcp', 'msgs_per_s', 10000, [9000, 11000]), s(64, 1, 'uds', 'msgs_per_s', 14000, [13000, 15000]), s(64, 1, 'uds/tcp', 'msgs_per_s', 1.4, [1.35, 1.46]),
  s(64, 1, 'tcp', 'client_cpu_us_per_msg', 30, [28, 32]), s(64, 1, 'uds', 'client_cpu_us_per_msg', 20.5, [19, 22]),
  s(64, 1, 'tcp', 'server_cpu_us_per_msg', 25, [24, 26]), s(64, 1, 'uds', 'server_cpu_us_per_msg', 15.25, [14, 16]),
  s(1024, 1, 'tcp', 'msgs_per_s', 9500, [9000, 10000]), s(1024, 1, 'uds', 'msgs_per_s', 9600, [9100, 10100]), s(1024, 1, 'uds/tcp', 'msgs_per_s', 1.01, [0.98, 1.03]),
  s(64, 16, 'tcp', 'msgs_per_s', 80000, null), s(64, 16, 'uds', 'msgs_per_s', 120000, null), s(64, 16, 'uds/tcp', 'msgs_per_s', 1.5, null),
];
const meta = { status: 'complete', trials_planned: 6, environment: ENVIRONMENT, spec: { pin: 'none' }, started_at: '2026-01-02T03:04:05.000Z' };

const TABLE_1 = [
  'size   TCP msgs/s  UDS msgs/s  UDS/TCP  95 % CI    sig  runs  cli µs/msg TCP   UDS  srv µs/msg TCP   UDS',
  '64 B        10.0k       14.0k     1.40  1.35–1.46  yes     3              30  20.5              25  15.3',
  '1 KiB        9500        9600     1.01  0.98–1.03  no      3               -     -               -     -',
];
const TABLE_16 = [
  'size  TCP msgs/s  UDS msgs/s  UDS/TCP  95 % CI  sig  runs  cli µs/msg TCP  UDS  srv µs/msg TCP  UDS',
  '64 B       80.0k      120.0k     1.50  -        -       1               -    -               -    -',
];
const VERDICT_1 = 'depth 1: UDS gives 1.40× the messages per second of TCP at 64 B (95 % CI 1.35–1.46); no difference larger than 3 % at 1 KiB (95 % CI 0.98–1.03).';
const VERDICT_16 = 'depth 16: one run only at 64 B: UDS 1.50× TCP, no confidence interval (use --runs 2 or more).';

describe('the report as text', () => {
  const findings = buildFindings({ trials, meta }, { summary });

  it('prints a table and a verdict per depth on the terminal, then the warnings', () => {
    expect(toReportText(findings)).toBe([
      'sweep complete: 6 trial rows of 6 planned, 6 ok, 0 failed', '',
      'depth 1', ...TABLE_1, VERDICT_1, '',
      'depth 16', ...TABLE_16, VERDICT_16, '',
      'warning: 1 of 2 comparisons have a 95 % CI that excludes 1; with 2 comparisons about 0.1 could do so by chance alone',
      '',
    ].join('\n'));
    expect(toVerdictText(findings)).toBe(`${VERDICT_1}\n${VERDICT_16}\n`);
  });

  it('writes summary.md with units in the headers', () => {
    expect(toMarkdown(findings)).toBe([
      '# udsvstcp: UDS vs TCP', '',
      'sweep complete: 6 trial rows of 6 planned, 6 ok, 0 failed.', '',
      'udsvstcp 0.1.0 · node 20.20.2 (libuv 1.46.0) · linux 6.1.0 x64 · 2× Test CPU · pin none · started 2026-01-02T03:04:05.000Z', '',
      '## depth 1', '',
      VERDICT_1, '',
      '| size | TCP msgs/s | UDS msgs/s | UDS/TCP (×) | 95 % CI (×) | CI excludes 1 | paired runs | client CPU TCP (µs/msg) | client CPU UDS (µs/msg) | server CPU TCP (µs/msg) | server CPU UDS (µs/msg) |',
      '|---|---:|---:|---:|---|---|---:|---:|---:|---:|---:|',
      '| 64 B | 10.0k | 14.0k | 1.40 | 1.35–1.46 | yes | 3 | 30 | 20.5 | 25 | 15.3 |',
      '| 1 KiB | 9500 | 9600 | 1.01 | 0.98–1.03 | no | 3 | - | - | - | - |',
      '',
      '## depth 16', '',
      VERDICT_16, '',
      '| size | TCP msgs/s | UDS msgs/s | UDS/TCP (×) | 95 % CI (×) | CI excludes 1 | paired runs | client CPU TCP (µs/msg) | client CPU UDS (µs/msg) | server CPU TCP (µs/msg) | server CPU UDS (µs/msg) |',
      '|---|---:|---:|---:|---|---|---:|---:|---:|---:|---:|',
      '| 64 B | 80.0k | 120.0k | 1.50 | - | - | 1 | - | - | - | - |',
      '',
      'msgs/s: geometric mean over runs. UDS/TCP: geometric mean of the per-run ratios (UDS and TCP of the same run), with a Student-t 95 % confidence interval on the log scale; "CI excludes 1" means the difference is significant at that level. CPU: user + system time per unit of work (message, GB, connection or request, as the heading says).',
      '',
      '## Warnings', '',
      '- 1 of 2 comparisons have a 95 % CI that excludes 1; with 2 comparisons about 0.1 could do so by chance alone',
      '',
    ].join('\n'));
  });

  it('reads the older summary shape too (cv_pct, no unit, no geomean)', () => {
    const old = summary.map(({ geomean, cv, unit: _unit, ...rest }) => ({ ...rest, mean: geomean, cv_pct: cv * 100 }));
    const text = toReportText(buildFindings({ trials, meta }, { summary: old }));
    expect(text).toContain(TABLE_1.join('\n'));
    expect(text).toContain(VERDICT_1);
  });
});
