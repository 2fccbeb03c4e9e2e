#!/usr/bin/env node
/**
 * Coordinated omission, shown: the echo server of udsvstcp stopped (SIGSTOP)
 * for `--stall` in the middle of a trial over TCP, once in open loop at
 * `--rate` (one segment of `--duration`, each packet timed from when it was
 * due) and once in closed loop at depth 1 (as many round trips as fit in
 * `--duration`). The stall starts once the server has echoed a third of the
 * open-loop trial's packets (a third of the closed-loop one's at 5000
 * round trips/s), so it falls inside what is measured. Prints both records'
 * counts and percentiles.
 *
 *   node test/bench/stall.js [--rate 1000] [--stall 500ms] [--duration 4s]
 */
import { parseArgs } from 'node:util';
import { startFixture } from '../../lib/fixture/fixture.js';
import { toDuration } from '../../lib/core/units.js';
import { runLanes } from '../../lib/trial/lanes.js';
import { getWorkload } from '../../lib/workloads/index.js';
import { alignColumns } from './table.js';
import { stallOnce } from '../helpers/server-stall.js';

const { values } = parseArgs({ options: { rate: { type: 'string', default: '1000' }, stall: { type: 'string', default: '500ms' }, duration: { type: 'string', default: '4s' } } });
let rate = 0;
let stallMs = 0;
let durationMs = 0;
try {
  rate = Number(values.rate);
  if (!Number.isInteger(rate) || rate < 10 || rate > 100_000) throw new Error(`--rate must be a whole number from 10 to 100000; got ${JSON.stringify(values.rate)}`);
  stallMs = toDuration(values.stall, '--stall', { min: 10, max: 10_000 });
  durationMs = toDuration(values.duration, '--duration', { min: 1000, max: 60_000 });
  if (stallMs * 3 > durationMs) throw new Error('--stall must be at most a third of --duration: it falls in the middle of the trial');
} catch (error) {
  process.stderr.write(`stall: error: ${/** @type {Error} */ (error).message}\n`);
  process.exit(2);
}

const fixture = await startFixture(getWorkload('echo'), { noDelay: true });
/**
 * One trial on TCP with the server stopped once it has echoed `afterPackets` more 64-byte packets.
 * @param {Record<string, any>} spec
 * @param {number} afterPackets
 */
async function stalled(spec, afterPackets) {
  const stop = await stallOnce(fixture, { afterPackets, stallMs });
  try {
    const { records } = await runLanes(/** @type {any} */ ({ targets: [fixture.targets.tcp], size: 64, seed: 3, noDelay: true, timeoutMs: 10_000 + stallMs, ...spec }), { server: fixture, limitMs: 120_000 });
    if (records[0].status !== 'ok') throw new Error(String(records[0].error));
    if (stop() !== 1) throw new Error('the trial ended before the server was stopped');
    return records[0];
  } finally {
    stop();
  }
}
try {
  const packets = Math.round((rate * durationMs) / 1000);
  const open = await stalled({ workload: 'rate', depth: rate, measure: { packets }, warmup: { packets: 50 } }, 50 + Math.round(packets / 3));
  const closedPackets = Math.round((5000 * durationMs) / 1000);
  const closed = await stalled({ workload: 'echo', depth: 1, measure: { packets: closedPackets }, warmup: { packets: 100 } }, 100 + Math.round(closedPackets / 3));
  const us = (/** @type {number} */ v) => (v >= 1000 ? `${(v / 1000).toFixed(1)} ms` : `${v.toFixed(0)} µs`);
  process.stdout.write(`server stopped for ${stallMs} ms, once, in the middle of each trial (TCP, 64 B)\n${alignColumns(['', 'timed', 'p50', 'p90', 'p99', 'max'], [
    [`open loop ${rate}/s`, `${open.requests} (dropped ${open.dropped}, incomplete ${open.incomplete})`, us(open.resp_p50_us), us(open.resp_p90_us), us(open.resp_p99_us), us(open.resp_max_us)],
    ['closed loop depth 1', String(closed.packets), us(closed.rtt_p50_us), us(closed.rtt_p90_us), us(closed.rtt_p99_us), us(closed.rtt_max_us)],
  ])}\n`);
} finally {
  await fixture.stop();
}
