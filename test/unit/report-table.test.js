import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { createRecord, errorRecord, recordFields } from '../../lib/trial/record.js';
import { toJsonLine } from '../../lib/results/json.js';
import { toComparison, toTable } from '../../lib/report/table.js';
import { batchMeansInterval, ratioInterval } from '../../lib/stats/ratios.js';

const tcp = createRecord({ workload: 'echo', transport: 'tcp', size_bytes: 64, depth: 1, packets: 1000, elapsed_ms: 80, msgs_per_s: 12500, mb_per_s: 0.8, rtt_mean_us: 80, rtt_sd_us: 5, rtt_p50_us: 79.5, rtt_p90_us: 85, rtt_p99_us: 120, rtt_p999_us: 200, rtt_max_us: 400, client_cpu_us_per_msg: 30, server_cpu_us_per_msg: 25, client_elu: 0.5, server_elu: 0.4 });
const uds = createRecord({ ...tcp, transport: 'uds', msgs_per_s: 25000, rtt_p50_us: 39.75, rtt_p99_us: 60, client_cpu_us_per_msg: 15 });

describe('report formatters', () => {
  it('records hold every field in order, empty figures null', () => {
    const r = errorRecord({ workload: 'echo', transport: 'uds', size_bytes: 1, depth: 2 }, new Error('boom\nsecond line'));
    expect(Object.keys(r)).toEqual(recordFields('echo'));
    expect(r.status).toBe('error');
    expect(r.error).toBe('boom');
    expect(r.msgs_per_s).toBeNull();
  });

  it('JSON lines carry exactly the record keys', () => {
    const line = toJsonLine(tcp);
    expect(line.endsWith('\n')).toBe(true);
    expect(Object.keys(JSON.parse(line))).toEqual(recordFields('echo'));
  });

  it('renders the table exactly', () => {
    expect(toTable([tcp, uds])).toBe(
      'transport  size  depth  packets  msgs/s  MB/s  rtt mean   p50  p99  p99.9  max µs  cpu µs/msg cli  srv  status\n'
      + 'tcp        64 B      1     1000   12.5k  0.80        80  79.5  120    200     400              30   25      ok\n'
      + 'uds        64 B      1     1000   25.0k  0.80        80  39.8   60    200     400              15   25      ok\n',
    );
  });

  it('shows a failed trial with its error', () => {
    const failed = errorRecord({ workload: 'echo', transport: 'tcp', size_bytes: 64, depth: 1 }, new Error('no echo'));
    expect(toTable([failed])).toContain('\n  no echo\n');
  });

  it('compares UDS with TCP per size and depth', () => {
    expect(toComparison([tcp, uds])).toBe('64 B depth 1: UDS ×2.00 the msgs/s of TCP; RTT p50 µs ×0.50, RTT p99 µs ×0.50, RTT mean µs ×1.00, client CPU µs/msg ×0.50, server CPU µs/msg ×1.00 (1 trial each: run a sweep for a confidence interval)\n');
    // one transport alone: what it measured, and that nothing is compared; nothing at all where it failed
    expect(toComparison([tcp])).toBe('64 B depth 1: TCP alone: its messages per second measured, nothing compared (TCP is the baseline, and no other transport was measured against it)\n');
    expect(toComparison([uds, uds])).toBe('64 B depth 1: UDS alone: its messages per second measured, nothing compared (there is no TCP baseline to compare it with)\n');
    expect(toComparison([errorRecord({ workload: 'echo', transport: 'uds', size_bytes: 64, depth: 1 }, new Error('boom'))])).toBe('');
  });

  it('with an interval asked for but one pair to make it of (one block each, one paired run), says so instead of naming its basis', () => {
    const one = batchMeansInterval([Math.log(2)]);
    expect(one.low).toBeNull();
    expect(toComparison([tcp, uds], { ratios: { uds: { interval: one, basis: 'the block pairs of one process (batch means)' } } })).toMatch(/×2\.00 the msgs\/s of TCP;.* \(one pair of measurements: no interval; more blocks, --runs 3 or a sweep give one\)\n$/);
    const two = ratioInterval([Math.log(2), Math.log(2.2)]);
    expect(toComparison([tcp, uds], { ratios: { uds: { interval: two, basis: '2 runs' } } })).toMatch(/\(95 % CI [\d.]+–[\d.]+\);.* \[interval from 2 runs\]\n$/);
  });

  it('names the mechanism figure farthest from 1 among those that happen often enough, not every one', () => {
    const counts = { client_vcsw_per_msg: 1, client_ivcsw_per_msg: 0.001, client_reads_per_msg: 1, client_writes_per_msg: 1 };
    const a = createRecord({ ...tcp, ...counts });
    const b = createRecord({ ...uds, ...counts, client_vcsw_per_msg: 0.5, client_ivcsw_per_msg: 0.02 });
    expect(toComparison([a, b])).toBe('64 B depth 1: UDS ×2.00 the msgs/s of TCP; RTT p50 µs ×0.50, RTT p99 µs ×0.50, RTT mean µs ×1.00, client CPU µs/msg ×0.50, server CPU µs/msg ×1.00, most different: client vcsw/msg ×0.50 (1 trial each: run a sweep for a confidence interval)\n');
  });

  it("colours the comparison by the figure's direction: green where the transport does better than TCP, yellow where worse", () => {
    const chalk = new Chalk({ level: 1 });
    const green = '\u001b[32m';
    const yellow = '\u001b[33m';
    // closed loop, higher is better (msgs/s): UDS ×2.00 is better, ×0.50 worse
    expect(toComparison([tcp, uds], { chalk })).toContain(`${green}UDS ×2.00 the msgs/s of TCP`);
    expect(toComparison([tcp, createRecord({ ...uds, msgs_per_s: 6250 })], { chalk })).toContain(`${yellow}UDS ×0.50 the msgs/s of TCP`);
    // open loop, lower is better (resp p99 µs): UDS ×1.56 the response time of TCP is worse, ×0.64 better
    const offered = { workload: 'rate', size_bytes: 64, depth: 1000, requests: 1000, rate_target: 1000, rate_sent: 1000, rate_completed: 1000, resp_p50_us: 40 };
    const rateTcp = createRecord({ ...offered, transport: 'tcp', resp_p99_us: 100 });
    expect(toComparison([rateTcp, createRecord({ ...offered, transport: 'uds', resp_p99_us: 156 })], { chalk })).toContain(`${yellow}UDS ×1.56 the resp p99 µs of TCP`);
    expect(toComparison([rateTcp, createRecord({ ...offered, transport: 'uds', resp_p99_us: 64 })], { chalk })).toContain(`${green}UDS ×0.64 the resp p99 µs of TCP`);
  });
});
