#!/usr/bin/env node
/**
 * The open-loop pacer alone (lib/client/open-driver.js): how late it sends at
 * a rate, with no socket and no server. Each packet's "echo" arrives on the
 * next pass of the event loop (setImmediate), so what is measured is the
 * pacer and the machine under it: the schedule lag (actual minus intended
 * send) of every packet, p50, p99 and the largest, and whether it sent every
 * packet it was due to, over `--duration` per rate.
 *
 *   node test/bench/pacer.js [--rates 2000,50000] [--duration 2s]
 *
 * Run it pinned (taskset -c 1 node test/bench/pacer.js) to see the CPU a lane
 * runs on under --pin split. The real pacer against a real server, by
 * transport: udsvstcp run --workload rate --rate R (its lag_* figures).
 */
import { createHistogram } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createOpenDriver } from '../../lib/client/open-driver.js';
import { toDuration } from '../../lib/core/units.js';
import { alignColumns } from './table.js';

const { values } = parseArgs({ options: { rates: { type: 'string', default: '2000,50000' }, duration: { type: 'string', default: '2s' } } });
const rates = values.rates.split(',').map(Number);
let durationMs = 0;
try {
  durationMs = toDuration(values.duration, '--duration', { min: 100, max: 60_000 });
} catch (error) {
  process.stderr.write(`pacer: error: ${/** @type {Error} */ (error).message}\n`);
  process.exit(2);
}
if (rates.some((r) => !Number.isInteger(r) || r < 1 || r > 1_000_000)) {
  process.stderr.write(`pacer: error: --rates must be whole numbers from 1 to 1000000; got ${JSON.stringify(values.rates)}\n`);
  process.exit(2);
}

const header = ['rate/s', 'packets', 'sent', 'lag p50 µs', 'lag p99 µs', 'lag max µs', 'send span ms'];
/** @type {string[][]} */
const rows = [];
for (const rate of rates) {
  const lag = createHistogram();
  const service = createHistogram();
  const echo = () => {
    const now = performance.now();
    driver.heard(now);
    driver.arrived(now);
    driver.settle(now);
  };
  const driver = createOpenDriver({ rate, cap: 4096, timeoutMs: 10_000, what: 'bench', histograms: { lag, service }, send: () => setImmediate(echo) });
  const packets = Math.max(1, Math.round((rate * durationMs) / 1000));
  const t = await driver.block(packets, createHistogram());
  driver.close();
  rows.push([String(rate), String(packets), String(t.sent), (lag.percentile(50) / 1e3).toFixed(2), (lag.percentile(99) / 1e3).toFixed(1), (lag.max / 1e3).toFixed(1), t.sendSpanMs.toFixed(1)]);
}
process.stdout.write(`${alignColumns(header, rows)}\n`);
