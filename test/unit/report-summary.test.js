import { describe, expect, it } from 'vitest';
import { createRecord, errorRecord } from '../../lib/trial/record.js';
import { toCsv } from '../../lib/results/csv.js';
import { summarize, toSummaryText } from '../../lib/stats/summarize.js';
import { toRunsWide } from '../../lib/results/wide.js';

/**
 * @param {number} run
 * @param {'tcp' | 'uds'} transport
 * @param {number} msgs
 */
const row = (run, transport, msgs) => ({ run, order: 0, ...createRecord({ workload: 'echo', transport, size_bytes: 64, depth: 1, packets: 100000, elapsed_ms: 1e8 / msgs, msgs_per_s: msgs, rtt_p50_us: 1e6 / msgs }) });

describe('sweep summary', () => {
  const rows = [row(0, 'tcp', 100), row(0, 'uds', 200), row(1, 'tcp', 100), row(1, 'uds', 400), row(2, 'tcp', 200), row(2, 'uds', 400)];

  it('gives per-transport statistics, units, and a Student-t 95 % CI of the geometric mean on the log scale', () => {
    const tcp = summarize(rows).find((r) => r.transport === 'tcp' && r.metric === 'msgs_per_s');
    expect(tcp).toMatchObject({ n: 3, median: 100, min: 100, max: 200, unit: 'msgs/s' });
    expect(tcp?.mean).toBeCloseTo(400 / 3, 10);
    const sd = Math.sqrt(((100 - 400 / 3) ** 2 * 2 + (200 - 400 / 3) ** 2) / 2);
    expect(tcp?.sd).toBeCloseTo(sd, 10);
    expect(tcp?.cv).toBeCloseTo(sd / (400 / 3), 10);
    const logs = [Math.log(100), Math.log(100), Math.log(200)];
    const m = logs.reduce((a, b) => a + b) / 3;
    const lsd = Math.sqrt(logs.reduce((a, b) => a + (b - m) ** 2, 0) / 2);
    const moe = 4.302652729911275 * lsd / Math.sqrt(3);
    expect(tcp?.geomean).toBeCloseTo(Math.exp(m), 8);
    expect(tcp?.ci95_low).toBeCloseTo(Math.exp(m - moe), 6);
    expect(tcp?.ci95_high).toBeCloseTo(Math.exp(m + moe), 6);
    expect(tcp?.ci95_half_width_pct).toBeCloseTo((Math.exp(moe) - 1) * 100, 6);
  });

  it('keeps every interval of a positive figure above zero, however wide', () => {
    const spread = [row(0, 'tcp', 1), row(1, 'tcp', 1000), row(2, 'tcp', 5)];
    const tcp = summarize(spread).find((r) => r.transport === 'tcp' && r.metric === 'msgs_per_s');
    expect(tcp?.ci95_low).toBeGreaterThan(0);
    expect(Number(tcp?.mean) - 4.302652729911275 * Number(tcp?.sd) / Math.sqrt(3)).toBeLessThan(0); // what a linear-scale interval would give
  });

  it('with no group compared (in open loop, none kept its rate): one line naming the sweep\'s workload\'s figure, not an empty echo table', () => {
    expect(toSummaryText([], { workload: 'http-rate' })).toBe('UDS/TCP resp p99 µs: no group compared (the verdicts below say why)\n');
  });

  it('of one transport alone: its figure per group and that nothing is compared, not an empty UDS/TCP table', () => {
    const text = toSummaryText(summarize([row(0, 'uds', 200), row(1, 'uds', 400)]));
    expect(text).toMatch(/^UDS msgs\/s, measured alone \(geometric mean of runs, 95 % CI\); nothing compared: there is no TCP baseline\n {2}64 B depth 1 +283 \[[\d.]+, [\d.]+\] n=2\n/);
    expect(text).not.toContain('UDS/TCP');
    expect(toSummaryText(summarize([row(0, 'tcp', 100)]))).toMatch(/^TCP msgs\/s, measured alone .*nothing compared: TCP is the baseline, and no other transport was measured\n {2}64 B depth 1 +100 \(n=1, no CI\)\n/);
  });

  it('marks whether each group reached a target precision', () => {
    const steady = [row(0, 'tcp', 100), row(0, 'uds', 200), row(1, 'tcp', 100), row(1, 'uds', 201), row(2, 'tcp', 100), row(2, 'uds', 199)];
    const met = summarize(steady, { precision: 0.03 }).find((r) => r.transport === 'uds/tcp' && r.metric === 'msgs_per_s');
    expect(met).toMatchObject({ unit: 'ratio', precision_met: 'yes' });
    const short = summarize(rows, { precision: 0.03 }).find((r) => r.transport === 'uds/tcp' && r.metric === 'msgs_per_s');
    expect(short?.precision_met).toBe('no');
    expect(summarize(rows).find((r) => r.transport === 'uds/tcp' && r.metric === 'msgs_per_s')?.precision_met).toBeNull();
    // the mark's legend; the warning, with its remedy, is the report's (below)
    expect(toSummaryText(summarize(rows, { precision: 0.03 }), { precision: 0.03 })).toMatch(/\n {2}! wider than the ±3 % target of --precision\.\n/);
    expect(toSummaryText(summarize(steady, { precision: 0.03 }), { precision: 0.03 })).not.toContain('!');
    // one run: no interval to be wider than the target; the row says (n=1, no CI), not '!'
    const once = summarize(steady.slice(0, 2), { precision: 0.03 });
    expect(once.find((r) => r.transport === 'uds/tcp' && r.metric === 'msgs_per_s')?.precision_met).toBe('no'); // not reached: the precision rounds measure it again
    expect(toSummaryText(once, { precision: 0.03 })).toContain('(n=1, no CI)');
    expect(toSummaryText(once, { precision: 0.03 })).not.toContain('!');
  });

  it('counts the intervals there are when it says how many are wider than the target', async () => {
    const { buildFindings } = await import('../../lib/report/findings.js');
    const at128 = (/** @type {Record<string, any>} */ r) => ({ ...r, size_bytes: 128 });
    const trials = [...rows, at128(rows[0]), at128(rows[1])]; // 128 B: one run, no interval
    const warnings = buildFindings({ trials, meta: { status: 'interrupted', spec: { runs: 3 } } }).warnings.filter((w) => w.includes('wider than'));
    expect(warnings).toEqual([expect.stringMatching(/^1 of 1 UDS\/TCP intervals are wider than/)]);
  });

  it('pairs UDS with TCP run by run: geometric mean of ratios, CI on the log scale', () => {
    const ratio = summarize(rows).find((r) => r.transport === 'uds/tcp' && r.metric === 'msgs_per_s');
    // per-run ratios 2, 4, 2
    expect(ratio?.n).toBe(3);
    expect(ratio?.mean).toBeCloseTo(Math.cbrt(16), 10);
    const logs = [Math.log(2), Math.log(4), Math.log(2)];
    const m = logs.reduce((a, b) => a + b) / 3;
    const sd = Math.sqrt(logs.reduce((a, b) => a + (b - m) ** 2, 0) / 2);
    expect(ratio?.ci95_low).toBeCloseTo(Math.exp(m - 4.302652729911275 * sd / Math.sqrt(3)), 6);
    expect(ratio?.significant).toBe('no'); // low ≈ 0.93: the CI includes 1 with n = 3
    const rtt = summarize(rows).find((r) => r.transport === 'uds/tcp' && r.metric === 'rtt_p50_us');
    expect(rtt?.mean).toBeCloseTo(1 / Math.cbrt(16), 10); // below 1: log-ratios are negative
  });

  it('leaves failed trials out of the statistics and out of the pairs', () => {
    const withFailure = [...rows, { run: 3, order: 0, ...errorRecord({ workload: 'echo', transport: 'uds', size_bytes: 64, depth: 1 }, new Error('x')) }, row(3, 'tcp', 100)];
    expect(summarize(withFailure).find((r) => r.transport === 'uds/tcp' && r.metric === 'msgs_per_s')?.n).toBe(3);
  });

  it('flags outliers by median/MAD and keeps them', () => {
    const many = [100, 101, 99, 100, 102, 98, 100, 500].map((m, run) => row(run, 'tcp', m));
    const tcp = summarize(many).find((r) => r.transport === 'tcp' && r.metric === 'msgs_per_s');
    expect(tcp).toMatchObject({ n: 8, outliers: 1, max: 500 });
  });

  it('says when there is no CI, and leaves the warnings to the report (one list, lib/report/findings.js)', () => {
    const text = toSummaryText(summarize(rows.slice(0, 2)));
    expect(text).toContain('(n=1, no CI)');
    expect(text).not.toContain('CI excludes 1');
    expect(toSummaryText(summarize(rows))).not.toMatch(/warning|wider than|consider/);
  });

  it('advises for wide intervals by what the sweep did: --pin split only where it was not pinned split, one remedy for --precision', async () => {
    const { buildFindings, wideRemedy } = await import('../../lib/report/findings.js');
    const split = 'split: server cpu 0, client cpu 1';
    expect(wideRemedy({ precision: null, pinning: split })).toBe('consider --precision 3% with --max-time, more --runs, or a quieter machine');
    expect(wideRemedy({ precision: 0.03, pinning: split })).toBe('consider a larger --max-time, or a quieter machine');
    expect(wideRemedy({ precision: null, pinning: 'same: server and client cpu 0' })).toBe('consider --precision 3% with --max-time, more --runs, --pin split, or a quieter machine');
    expect(wideRemedy({ precision: 0.03, pinning: 'none' })).toBe('consider a larger --max-time, --pin split, or a quieter machine');
    const wide = (/** @type {Record<string, any>} */ meta) => buildFindings({ trials: rows, meta: { status: 'complete', ...meta } }).warnings.filter((w) => w.includes('wider than'));
    expect(wide({ pinning: split, spec: { runs: 3 } })).toEqual([expect.stringMatching(/^1 of 1 UDS\/TCP intervals are wider than ±5 %, widest 64 B depth 1 \([\d.]+–[\d.]+\); consider --precision 3% with --max-time, more --runs, or a quieter machine$/)]);
    expect(wide({ pinning: 'same: server and client cpu 0', spec: { runs: 3, precision: 0.03 } })).toEqual([expect.stringMatching(/^1 of 1 UDS\/TCP intervals are wider than the ±3 % target of --precision, .*; consider a larger --max-time, --pin split, or a quieter machine$/)]);
  });

  it('lays out runs-wide.csv as in 2014, ms per 100 000 round trips', () => {
    const wide = toRunsWide(rows, { sizes: [64], depths: [1], transports: ['tcp', 'uds'], runs: 3 });
    expect(toCsv(wide.rows, wide.columns)).toBe('NAME (ms per 100 000 round trips),RUN 0,RUN 1,RUN 2\nUDS Size 64,500000,250000,250000\nTCP Size 64,1000000,1000000,500000\n');
  });

  it('neutralises text cells a spreadsheet would run as formulas', () => {
    expect(toCsv([{ a: '=1+1', b: '-x', c: -5, d: 'ok' }], ['a', 'b', 'c', 'd'])).toBe("a,b,c,d\n'=1+1,'-x,-5,ok\n");
  });
});

describe('the client-bottleneck warning', () => {
  it('names the rows whose client event loop was busy over 90 %, and says nothing otherwise', async () => {
    const { clientWarnings, CLIENT_ELU_WARN } = await import('../../lib/stats/summarize.js');
    const at = (/** @type {number} */ elu, status = 'ok') => ({ status, client_elu: elu });
    expect(CLIENT_ELU_WARN).toBe(0.9);
    expect(clientWarnings([at(0.5), at(0.9), at(0.95, 'error')])).toEqual([]);
    const [warning] = clientWarnings([at(0.5), at(0.93), at(0.97)]);
    expect(warning).toMatch(/^in 2 of 3 trial rows the client's event loop was busy over 90 % of the measured time \(at most 97 %\): the client may be the bottleneck/);
  });
});

describe('the note on uncounted read and write calls', () => {
  it('is given where switches were counted and calls were not (no /proc/PID/io), never for results from before the counters', async () => {
    const { counterWarnings } = await import('../../lib/stats/summarize.js');
    const row = (/** @type {Record<string, unknown>} */ figures) => ({ run: 0, order: 0, ...createRecord({ workload: 'echo', transport: 'tcp', size_bytes: 64, depth: 1, msgs_per_s: 1000, ...figures }) });
    const counted = { client_vcsw_per_msg: 0.9, client_reads_per_msg: 1, client_writes_per_msg: 1, server_vcsw_per_msg: 0.9, server_reads_per_msg: 1, server_writes_per_msg: 1 };
    const uncounted = { client_vcsw_per_msg: 0.9, server_vcsw_per_msg: 0.9 }; // as on macOS
    expect(counterWarnings([row(counted), row(counted)])).toEqual([]);
    expect(counterWarnings([row({})])).toEqual([]); // an older trials.csv: no switches either
    // an IPC channel's reads are recvmsg calls, which /proc/PID/io does not count: empty by design, no warning
    const ipc = { ...counted, transport: 'ipc-json', client_reads_per_msg: null, server_reads_per_msg: null };
    expect(counterWarnings([row(counted), row(ipc)])).toEqual([]);
    expect(counterWarnings([row(counted), row(uncounted)])).toEqual(['read and write calls per unit are empty in 1 of 2 trial rows: they come from /proc/PID/io, which this system does not give (Linux with task I/O accounting has it); context switches are counted everywhere']);
  });
});

describe("the report's warnings", () => {
  it('include the client-bottleneck warning, so summary.md and report.html carry it too', async () => {
    const { buildFindings } = await import('../../lib/report/findings.js');
    const busy = [0, 1, 2].flatMap((run) => ['tcp', 'uds'].map((transport) => ({ run, order: 0, ...createRecord({ workload: 'http', transport, size_bytes: 64, depth: 10, requests: 1000, req_per_s: transport === 'uds' ? 1200 : 1000, client_elu: 0.95 }) })));
    expect(buildFindings({ trials: busy, meta: null }).warnings.join('\n')).toMatch(/in 6 of 6 trial rows the client's event loop was busy over 90 %/);
    const calm = busy.map((r) => ({ ...r, client_elu: 0.5 }));
    expect(buildFindings({ trials: calm, meta: null }).warnings.join('\n')).not.toMatch(/event loop/);
  });
});

describe('the summary for people', () => {
  it("heads its table with the workload's primary figure and its second figure", async () => {
    const { toSummaryText } = await import('../../lib/stats/summarize.js');
    const ratio = (/** @type {string} */ workload, /** @type {string} */ metric) => ({ workload, size_bytes: 64, depth: 1, transport: 'uds/tcp', metric, mean: 1.1, n: 3, ci95_low: 1.05, ci95_high: 1.15, ci95_half_width_pct: 4.8, significant: 'yes', precision_met: null });
    expect(toSummaryText([ratio('echo', 'msgs_per_s')]).split('\n')[0]).toBe('UDS/TCP msgs/s (geometric mean of paired runs, 95 % CI)          TCP msgs/s   UDS msgs/s   RTT p50 UDS/TCP');
    expect(toSummaryText([ratio('http', 'req_per_s')]).split('\n')[0]).toBe('UDS/TCP req/s (geometric mean of paired runs, 95 % CI)            TCP req/s    UDS req/s   latency p50 UDS/TCP');
    // open loop: the figure by name (resp p99 µs, as summary.md heads it), not the bare unit 'us'; its columns aligned
    const offered = { ...ratio('rate', 'resp_p99_us'), depth: 1000 };
    const rate = toSummaryText([offered, { ...offered, transport: 'tcp', geomean: 500 }, { ...offered, transport: 'uds', geomean: 550 }]).split('\n');
    expect(rate[0]).toBe('UDS/TCP resp p99 µs (geometric mean of paired runs, 95 % CI)     TCP resp p99 µs   UDS resp p99 µs   resp p50 UDS/TCP');
    expect(rate[1]).toMatch(/^ {2}64 B rate 1000 +× {2}1\.10 \[ {2}1\.05, {3}1\.15\] {2}±4\.8% n=3 +\* +500 +550 +× +- *$/);
    const heads = ['TCP resp p99 µs   UDS', 'UDS resp p99 µs   resp'].map((h) => rate[0].indexOf(h) + 'TCP resp p99 µs'.length); // where each header ends
    expect(rate[1].indexOf(' 550') + 4 - (rate[1].indexOf(' 500') + 4)).toBe(heads[1] - heads[0]);
    // each figure ends under its heading, with an interval and with one run (no interval) alike
    expect(rate[1].indexOf(' 500') + 4).toBe(heads[0]);
    const single = toSummaryText([{ ...offered, n: 1, ci95_low: null, ci95_high: null, ci95_half_width_pct: null, significant: null }, { ...offered, transport: 'tcp', geomean: 500 }, { ...offered, transport: 'uds', geomean: 550 }]).split('\n');
    expect(single[1]).toContain('(n=1, no CI)');
    expect(single[1].indexOf(' 500') + 4).toBe(heads[0]);
    // a label longer than the column (postgres's), and an interval ±100 % or wider, widen their columns
    const wide = toSummaryText([{ ...offered, ci95_low: 0.01, ci95_high: 40, ci95_half_width_pct: 3943 }, { ...offered, depth: 1, ci95_half_width_pct: 4.8 }, ...[1000, 1].flatMap((depth) => [{ ...offered, depth, transport: 'tcp', geomean: 500 }, { ...offered, depth, transport: 'uds', geomean: 550 }])]).split('\n');
    const wideHead = wide[0].indexOf('TCP resp p99 µs   UDS') + 'TCP resp p99 µs'.length;
    expect(wide[1]).toContain('±3943.0%');
    expect([wide[1].indexOf(' 500') + 4, wide[2].indexOf(' 500') + 4]).toEqual([wideHead, wideHead]);
    const lookups = { ...ratio('postgres', 'queries_per_s'), size_bytes: 1, depth: 1 };
    const postgres = toSummaryText([lookups, { ...lookups, transport: 'tcp', geomean: 500 }, { ...lookups, transport: 'uds', geomean: 550 }]).split('\n');
    expect(postgres[1]).toMatch(/^ {2}1 lookup connections 1 /);
    expect(postgres[1].indexOf(' 500') + 4).toBe(postgres[0].indexOf(' UDS ') + 1 - 3);
    expect(toSummaryText([{ ...ratio('http', 'req_per_s'), depth: 10 }]).split('\n')[1]).toMatch(/^ {2}64 B connections 10 +× {2}1\.10 \[ {2}1\.05, {3}1\.15\] {2}±4\.8% n=3/);
  });
});
