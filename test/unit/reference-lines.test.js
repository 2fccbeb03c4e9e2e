/**
 * The line a sweep prints per C-reference group (redis-benchmark): each
 * transport's median rps, and its ratio to TCP's with a 95 % interval paired
 * by run. Hand-made rows.
 */
import { describe, expect, it } from 'vitest';
import { describeReference } from '../../lib/report/table.js';
import { ratioInterval } from '../../lib/stats/ratios.js';

/** @param {number} run @param {string} transport @param {number} rps */
const row = (run, transport, rps, status = 'ok') => ({ run, client: 'redis-benchmark', transport, size_bytes: 16, depth: 1, test: 'SET', rps, status });

describe('redis-benchmark lines', () => {
  it('give the medians, and the geometric mean of the ratios paired by run with its interval', () => {
    const tcp = [1000, 1100, 900];
    const uds = [1300, 1320, 1260];
    const [line] = describeReference(tcp.flatMap((x, run) => [row(run, 'tcp', x), row(run, 'uds', uds[run])]), 'tcp');
    const ci = ratioInterval(uds.map((x, run) => Math.log(x / tcp[run])));
    expect(line).toBe(`redis-benchmark 16 B depth 1 SET: tcp 1.0k rps, uds 1.3k rps (×${ci.mean.toFixed(2)}, 95 % CI ${ci.low?.toFixed(2)}–${ci.high?.toFixed(2)}) (median of 3 runs)`);
  });

  it('pair only the runs both transports measured; with one such run, the medians\' ratio and no interval', () => {
    const rows = [row(0, 'tcp', 1000), row(0, 'uds', 1500), row(1, 'tcp', 1000, 'error'), row(1, 'uds', 1400)];
    expect(describeReference(rows, 'tcp')).toEqual(['redis-benchmark 16 B depth 1 SET: tcp 1.0k rps, uds 1.4k rps (×1.45) (median of 2 runs)']);
  });
});
