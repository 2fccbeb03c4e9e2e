/**
 * A figure's label as its own workload declares it: workloads share columns
 * (latency_p50_us: http's requests, redis's operations, postgres's queries),
 * not always what the column means.
 */
import { describe, expect, it } from 'vitest';
import { figureOf, primaryFigure, resolveFigure } from '../../lib/workloads/figures.js';
import { getWorkload } from '../../lib/workloads/index.js';

describe('figures by workload', () => {
  it('give a shared column the label of the workload asked about', () => {
    for (const workload of ['http', 'redis', 'postgres']) {
      expect(figureOf('latency_p50_us', workload).label).toBe(getWorkload(workload).summary.latency_p50_us.label);
      expect(resolveFigure('latency_p99_us', { flag: '--primary', workloads: [workload] }).label).toBe(getWorkload(workload).summary.latency_p99_us.label);
    }
    expect(new Set(['http', 'redis', 'postgres'].map((w) => figureOf('latency_p50_us', w).label)).size).toBe(3);
  });

  it('give each workload its own primary figure, and a plain entry for a column no workload has', () => {
    expect(primaryFigure('rate')).toMatchObject({ metric: 'resp_p99_us', ...getWorkload('rate').summary.resp_p99_us });
    expect(figureOf('no_such_column', 'http')).toEqual({ metric: 'no_such_column', label: 'no_such_column', short: 'no_such_column', unit: '', better: 'higher' });
  });
});
