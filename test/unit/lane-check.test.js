import { describe, expect, it } from 'vitest';
import { LANE_BOUNDS, checkLanes, laneDifference } from '../../lib/trial/lane-check.js';
import { laneWarnings } from '../../lib/stats/summarize.js';
import { processorOf } from '../../lib/core/placement.js';

/**
 * A lane's record as a trial writes it, with what the check reads.
 * @param {string} transport
 * @param {number} sameCpuShare
 * @param {number} ivcsw client preemptions per message
 * @param {string[]} [cpus] the client's and the server's
 */
const lane = (transport, sameCpuShare, ivcsw, cpus = ['1', '0']) => ({
  transport, status: 'ok', same_cpu_share: sameCpuShare, client_ivcsw_per_msg: ivcsw, client_cpus: cpus[0], server_cpus: cpus[1], lane_check: null,
});

describe('lane check', () => {
  it('passes lanes placed and preempted like the TCP lane', () => {
    const checked = checkLanes([lane('tcp', 0, 0.06), lane('uds', 0.1, 0.1), lane('worker', 0, 0.02)]);
    expect(checked.map((r) => r.lane_check)).toEqual(['', '', '']);
  });

  it('names the lane whose ends share a CPU more than the bound more often than TCP\'s', () => {
    const [, json] = checkLanes([lane('tcp', 0, 0.06, ['0 1', '0 1']), lane('ipc-json', 0.9, 0.07, ['1', '1'])]);
    expect(json.lane_check).toBe('unequal conditions: its ends on one CPU at 90 % of block edges, tcp\'s at 0 % (client on cpu 1, server on cpu 1; tcp: client on cpu 0 1, server on cpu 0 1)');
  });

  it('names a lane preempted beyond both bounds (the 0.5.0 five-lane trial: 0.68 against 0.06 per message)', () => {
    expect(laneDifference(lane('ipc-json', 0, 0.68), lane('tcp', 0, 0.06))).toContain('client preempted 0.68 times per msg, tcp\'s 0.06');
    // within the absolute bound, however large the factor
    expect(laneDifference(lane('uds', 0, 0.0002 + LANE_BOUNDS.preemptionsPerUnit / 2), lane('tcp', 0, 0.0001))).toBe('');
    // beyond the absolute bound, within the factor
    expect(laneDifference(lane('uds', 0, 1.5), lane('tcp', 0, 1.0))).toBe('');
  });

  it('checks nothing without an ok TCP lane, and leaves failed lanes alone', () => {
    const records = [lane('uds', 0, 0.06), lane('worker', 1, 0.9)];
    expect(checkLanes(records)).toBe(records);
    const failed = { ...lane('uds', 1, 0.9), status: 'error' };
    expect(checkLanes([lane('tcp', 0, 0.06), failed])[1]).toBe(failed);
  });

  it('warns once, naming each flagged lane and how many trials', () => {
    const rows = [
      { transport: 'tcp', status: 'ok', lane_check: '' },
      { transport: 'ipc-json', status: 'ok', lane_check: 'unequal conditions: x' },
      { transport: 'ipc-json', status: 'ok', lane_check: 'unequal conditions: y' },
      { transport: 'worker', status: 'ok', lane_check: 'unequal conditions: z' },
    ];
    const [warning, ...rest] = laneWarnings(rows);
    expect(rest).toEqual([]);
    expect(warning).toMatch(/^3 trial lane\(s\) ran under unequal conditions .*: ipc-json in 2, worker in 1; the ends ran on CPUs of their own alike/);
    const placed = laneWarnings([{ transport: 'ipc-json', status: 'ok', size_bytes: 1024, depth: 1, lane_check: 'unequal conditions: its ends on one CPU at 90 % of block edges, tcp\'s at 0 %' }]);
    expect(placed[0]).toContain('compares placements as well as transports');
    expect(laneWarnings(rows.slice(0, 1))).toEqual([]);
  });

  it('names the first flagged lane\'s group in its workload\'s words: an open-loop rate as a rate, not a depth', () => {
    const flagged = (/** @type {string} */ workload, /** @type {number} */ size, /** @type {number} */ depth) => laneWarnings([{ workload, transport: 'ipc-json', status: 'ok', size_bytes: size, depth, lane_check: 'unequal conditions: x' }])[0];
    expect(flagged('rate', 64, 500)).toMatch(/First: ipc-json at 64 B rate 500, unequal conditions: x$/);
    expect(flagged('echo', 1024, 16)).toMatch(/First: ipc-json at 1 KiB depth 16, unequal conditions: x$/);
  });
});

describe('processorOf', () => {
  it('reads field 39 after a command name holding spaces and parentheses', () => {
    const tail = Array.from({ length: 50 }, (_, i) => String(i + 3));
    tail[0] = 'S';
    tail[39 - 3] = '7';
    expect(processorOf(`1234 (node (a) b) ${tail.join(' ')}`)).toBe(7);
    expect(processorOf('garbage')).toBe(null);
  });
});

describe('allowedCpus', () => {
  it('reads the CPUs a process may use from Cpus_allowed_list, a container\'s cpuset need not start at 0', async () => {
    const { allowedCpus } = await import('../../lib/sweep/pinning.js');
    expect(allowedCpus('Name:\tnode\nCpus_allowed_list:\t2-3\n')).toEqual([2, 3]);
    expect(allowedCpus('Cpus_allowed_list:\t0,4-5,7\n')).toEqual([0, 4, 5, 7]);
  });
});
