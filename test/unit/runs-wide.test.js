import { describe, expect, it } from 'vitest';
import { toCsv } from '../../lib/results/csv.js';
import { toRunsWide } from '../../lib/results/wide.js';
import { okRow } from '../helpers/results-fixture.js';

describe('the 2014 wide layout', () => {
  it('has a column per run number present or planned, never one per number up to the largest', () => {
    const huge = 2 ** 32; // 0 … huge would be an array longer than JavaScript allows
    const rows = [okRow(0, 'tcp', 64, 1, 1000), okRow(0, 'uds', 64, 1, 2000), okRow(huge, 'tcp', 64, 1, 500)];
    // a spec planning 3e8 runs gets the runs a sweep may hold (1000), not 3e8 columns
    const wide = toRunsWide(rows, { sizes: [64], depths: [1], transports: ['tcp', 'uds'], runs: 300_000_000 });
    expect(wide.columns).toHaveLength(1 + 1000 + 1);
    expect(wide.columns.slice(0, 3)).toEqual(['NAME (ms per 100 000 round trips)', 'RUN 0', 'RUN 1']);
    expect(wide.columns.at(-1)).toBe(`RUN ${huge}`);
    expect(wide.rows).toEqual([
      { 'NAME (ms per 100 000 round trips)': 'UDS Size 64', 'RUN 0': 50_000 },
      { 'NAME (ms per 100 000 round trips)': 'TCP Size 64', 'RUN 0': 100_000, [`RUN ${huge}`]: 200_000 },
    ]);
  });

  it('leaves out run numbers no row holds beyond the planned ones, and keeps groups the spec did not plan', () => {
    const rows = [okRow(0, 'tcp', 64, 1, 1000), okRow(7, 'uds', 1024, 16, 2000)];
    const wide = toRunsWide(rows, { sizes: [64], depths: [1], transports: ['tcp', 'uds'], runs: 2 });
    expect(toCsv(wide.rows, wide.columns)).toBe([
      'NAME (ms per 100 000 round trips),RUN 0,RUN 1,RUN 7',
      'UDS Size 64 Depth 1,,,',
      'UDS Size 1024 Depth 16,,,50000',
      'TCP Size 64 Depth 1,100000,,',
      'TCP Size 1024 Depth 16,,,',
      '',
    ].join('\n'));
  });
});
