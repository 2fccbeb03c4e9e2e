#!/usr/bin/env node
/**
 * The open-loop generator (lib/client/open-driver.js), in two parts (docs/openloop.md#the-pacer-and-its-limits-on-this-machine).
 *
 * 1. The pacer alone: no socket and no server. Each packet's "echo" arrives on the next pass of the event loop
 *    (setImmediate), so what is measured is the pacer and the machine under it: the schedule lag (actual minus
 *    intended send) of every packet, p50, p99 and the largest, and whether it sent every packet it was due to, over
 *    `--duration` per rate of `--rates`.
 * 2. Against a real 64 B echo server: the project's own, started as `udsvstcp run --workload rate` starts it (the
 *    library's run(), lib/api/run.js, one run per rate: a fresh server, TCP and UDS in alternating segments, pinned
 *    as run pins them), at a rising ladder of offered rates (`--ladder`). Per transport: the highest rate at which
 *    the pacer kept its schedule (lag p99 ≤ 50 µs and sent/s within 0.5 % of the target); the knee, the highest rate
 *    kept as the sweep judges it (`limit` none: lib/stats/knees.js, each segment judged by keptSegment in
 *    lib/workloads/rate.js) and what stopped it at the next rate; which
 *    saturates first, the generator (its lag or sent/s fails first) or the server (it falls behind while the pacer
 *    keeps its schedule); and the client's CPU per request (the generator's) beside the server's.
 *
 *   node test/bench/pacer.js [--rates 2000,50000] [--duration 2s] [--ladder 1000,1500,…,256000] [--trial 800ms]
 *                            [--warmup 100ms] [--transport tcp,uds] [--pin split] [--budget 110s] [--alone] [--short]
 *
 * The climb stops once every transport has missed both (the pacer's criterion and the knee's) at two rates in a row, at the ladder's top, or
 * before a rate that would outlast `--budget` (the whole bench, from its start; a trial under way at the budget is
 * stopped). `--short`: one pacer-alone rate for 200 ms and the ladder 1000,2000 (a check that it runs, not figures).
 * `--alone`: the pacer alone only (pinned, `taskset -c 1 node test/bench/pacer.js --alone`, it shows the CPU a lane runs
 * on under --pin split; the ladder pins its own processes). A table for people on stderr, one JSON document on stdout.
 */
import os from 'node:os';
import { createHistogram, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { run } from '../../lib/api/run.js';
import { createOpenDriver } from '../../lib/client/open-driver.js';
import { toDuration } from '../../lib/core/units.js';
import { resolveRunOptions } from '../../lib/options/validate.js';
import { findKnees } from '../../lib/stats/knees.js';
import { alignColumns } from './table.js';

/** The pacer kept its schedule at a rate when its lag p99 is within this many µs (issue 22, item 10)… */
export const LAG_P99_BOUND_US = 50;
/** …and it sent within this share of the rate offered. */
export const RATE_SENT_TOLERANCE = 0.005;
/** The packet size of the ladder's trials. */
const SIZE = 64;
/** The default ladder: about √2 steps, 1000/s to 256 000/s. */
const LADDER = [1000, 1500, 2000, 3000, 4000, 6000, 8000, 12000, 16000, 24000, 32000, 48000, 64000, 96000, 128000, 192000, 256000];
/** Figures of a run's record kept in the JSON. */
const FIELDS = ['rate_target', 'transport', 'status', 'error', 'requests', 'rate_sent', 'rate_completed', 'dropped', 'limit', 'limit_reason', 'lag_p50_us', 'lag_p99_us', 'lag_max_us',
  'resp_p50_us', 'resp_p99_us', 'svc_p50_us', 'client_cpu_us_per_req', 'server_cpu_us_per_req', 'client_elu', 'server_elu'];

/**
 * Whether the pacer kept its schedule in a record of the rate workload: lag p99 and sent/s within their bounds.
 * @param {Record<string, any>} r
 */
export const pacerKept = (r) => r.status === 'ok' && r.lag_p99_us <= LAG_P99_BOUND_US && Math.abs(r.rate_sent - r.rate_target) <= RATE_SENT_TOLERANCE * r.rate_target;

/**
 * Per transport, from the ladder's records (one per transport and rate offered, `run` 0): the highest rate at which the
 * pacer kept its schedule, the knee and what stopped it, the highest rate kept (above a rate missed, too), which
 * saturates first (null: no rate measured), and the CPU per request at the knee. Pure.
 * @param {Record<string, any>[]} rows records of `udsvstcp run --workload rate`, with `run`
 * @param {string[]} transports
 */
export function findLimits(rows, transports) {
  const [knees] = findKnees(rows);
  return transports.map((transport) => {
    const mine = rows.filter((r) => r.transport === transport).sort((a, b) => a.rate_target - b.rate_target);
    const first = (/** @type {(r: Record<string, any>) => boolean} */ test) => mine.find(test)?.rate_target ?? null;
    const failed = first((r) => r.status !== 'ok');
    const generator = first((r) => r.status === 'ok' && !pacerKept(r));
    const server = first((r) => r.status === 'ok' && r.limit === 'server');
    const earliest = Math.min(...[failed, generator, server].map((x) => x ?? Infinity));
    const saturatesFirst = mine.length === 0 ? null : earliest === Infinity ? 'neither' : earliest === failed ? 'unknown (the trial failed)'
      : earliest === generator && earliest === server ? 'both' : earliest === generator ? 'generator' : 'server';
    const pacerRates = mine.filter(pacerKept).map((r) => r.rate_target);
    const keptRates = mine.filter((r) => r.status === 'ok' && r.limit === 'none').map((r) => r.rate_target);
    const knee = knees?.transports.find((t) => t.transport === transport);
    const atKnee = mine.find((r) => r.rate_target === knee?.knee);
    return {
      transport,
      pacer_max_rate: pacerRates.length ? Math.max(...pacerRates) : null,
      knee: knee?.knee ?? null,
      highest_kept: keptRates.length ? Math.max(...keptRates) : null,
      knee_stopped_by: Object.keys(knee?.stoppedBy ?? {})[0] ?? null,
      saturates_first: saturatesFirst,
      first_generator_miss: generator,
      first_server_miss: server,
      at_knee: atKnee ? { client_cpu_us_per_req: atKnee.client_cpu_us_per_req, server_cpu_us_per_req: atKnee.server_cpu_us_per_req } : null,
    };
  });
}

/**
 * Every transport missed both, the pacer's criterion and the knee's, at each of the last two rates offered to it: no
 * higher rate can tell more (one miss alone may be a pause of the machine).
 * @param {Record<string, any>[]} rows
 * @param {string[]} transports
 */
export const climbed = (rows, transports) => transports.every((t) => {
  const last = rows.filter((r) => r.transport === t).sort((a, b) => a.rate_target - b.rate_target).slice(-2);
  return last.length === 2 && last.every((r) => !pacerKept(r) && (r.status !== 'ok' || r.limit !== 'none'));
});

/** @param {number} v @param {number} [digits] */
const fmt = (v, digits = 1) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
/** @param {number | null} n */
const rate = (n) => (n === null ? 'at no rate offered' : `at ${n}/s`);

/**
 * The ladder's table and a line per transport, for people.
 * @param {Record<string, any>[]} rows as in the JSON (FIELDS)
 * @param {ReturnType<typeof findLimits>} limits
 */
export function toTable(rows, limits) {
  const header = ['rate/s', 'transport', 'sent/s', 'done/s', 'dropped', 'lag p50 µs', 'lag p99 µs', 'pacer', 'limit', 'resp p50 µs', 'cpu µs/req cli', 'srv'];
  const body = rows.map((r) => (r.status !== 'ok' ? [String(r.rate_target), r.transport, `failed: ${r.error}`, '', '', '', '', '', '', '', '', '']
    : [String(r.rate_target), r.transport, fmt(r.rate_sent), fmt(r.rate_completed), String(r.dropped), fmt(r.lag_p50_us), fmt(r.lag_p99_us), pacerKept(r) ? 'kept' : 'missed', r.limit,
      fmt(r.resp_p50_us, 0), fmt(r.client_cpu_us_per_req), fmt(r.server_cpu_us_per_req)]));
  const lines = limits.map((l) => (l.saturates_first === null ? `${l.transport}: no rate measured` : `${l.transport}: the pacer kept its schedule (lag p99 ≤ ${LAG_P99_BOUND_US} µs, sent/s within ${RATE_SENT_TOLERANCE * 100} %) `
    + `${l.pacer_max_rate === null ? 'at no rate offered' : `at ${l.pacer_max_rate}/s and no higher rate`}; `
    + `knee ${l.knee === null ? 'none (no rate kept)' : `${l.knee}/s`}${l.knee_stopped_by === 'failed' ? ', then a trial failed' : l.knee_stopped_by ? `, then limited by the ${l.knee_stopped_by}` : ', every rate offered kept'}`
    + `${l.highest_kept !== null && l.highest_kept !== l.knee ? ` (kept ${l.highest_kept}/s, above a rate missed)` : ''}; `
    + `saturates first: ${l.saturates_first} (the pacer first missed ${rate(l.first_generator_miss)}, the server first fell behind ${rate(l.first_server_miss)})`
    + `${l.at_knee ? `; at the knee, client CPU ${fmt(l.at_knee.client_cpu_us_per_req)} µs/req (the generator's: it spins), server ${fmt(l.at_knee.server_cpu_us_per_req)} µs/req` : ''}`));
  return `${alignColumns(header, body)}\n\n${lines.join('\n')}`;
}

/**
 * The pacer alone at each rate: each "echo" on the next pass of the loop.
 * @param {number[]} rates
 * @param {number} durationMs
 */
async function pacerAlone(rates, durationMs) {
  const rows = [];
  for (const offered of rates) {
    const lag = createHistogram();
    const service = createHistogram();
    const echo = () => {
      const now = performance.now();
      driver.heard(now);
      driver.arrived(now);
      driver.settle(now);
    };
    const driver = createOpenDriver({ rate: offered, cap: 4096, timeoutMs: 10_000, what: 'bench', histograms: { lag, service }, send: () => setImmediate(echo) });
    const packets = Math.max(1, Math.round((offered * durationMs) / 1000));
    const t = await driver.block(packets, createHistogram());
    driver.close();
    rows.push({ rate: offered, packets, sent: t.sent, lag_p50_us: lag.percentile(50) / 1e3, lag_p99_us: lag.percentile(99) / 1e3, lag_max_us: lag.max / 1e3, send_span_ms: t.sendSpanMs });
  }
  return rows;
}

/** @param {string} message */
const refuse = (message) => {
  process.stderr.write(`pacer: error: ${message}\n`);
  return 2;
};

async function main() {
  const started = performance.now();
  const { values } = parseArgs({
    options: {
      rates: { type: 'string' }, duration: { type: 'string' }, ladder: { type: 'string' }, trial: { type: 'string' }, warmup: { type: 'string' },
      transport: { type: 'string', default: 'tcp,uds' }, pin: { type: 'string', default: 'split' }, budget: { type: 'string', default: '110s' },
      alone: { type: 'boolean', default: false }, short: { type: 'boolean', default: false },
    },
  });
  const list = (/** @type {string} */ text) => text.split(',').map(Number);
  const rates = list(values.rates ?? (values.short ? '2000' : '2000,50000'));
  const ladder = values.alone ? [] : list(values.ladder ?? (values.short ? '1000,2000' : LADDER.join(',')));
  const transports = values.transport.split(',');
  // the lists first: run()'s check below reads the ladder's first rate
  if (rates.some((r) => !Number.isInteger(r) || r < 1 || r > 1_000_000)) return refuse(`--rates must be whole numbers from 1 to 1000000; got ${JSON.stringify(values.rates)}`);
  if (ladder.some((r, i) => !Number.isInteger(r) || r < 1 || r > 1_000_000 || (i > 0 && r <= ladder[i - 1])) || ladder.length > 64) {
    return refuse(`--ladder must be up to 64 rising whole numbers from 1 to 1000000; got ${JSON.stringify(values.ladder)}`);
  }
  let durationMs = 0;
  let trialMs = 0;
  let warmupMs = 0;
  let budgetMs = 0;
  try {
    durationMs = toDuration(values.duration ?? (values.short ? '200ms' : '2s'), '--duration', { min: 100, max: 60_000 });
    trialMs = toDuration(values.trial ?? '800ms', '--trial', { min: 100, max: 60_000 });
    warmupMs = toDuration(values.warmup ?? (values.short ? '20ms' : '100ms'), '--warmup', { min: 10, max: 10_000 });
    budgetMs = toDuration(values.budget, '--budget', { min: 1000, max: 600_000 });
    // fail before measuring: what run() would refuse (--transport, --pin), at the ladder's first rate
    if (ladder.length) resolveRunOptions({ workload: 'rate', rate: ladder[0], size: SIZE, transport: values.transport, pin: values.pin });
  } catch (error) {
    return refuse(/** @type {Error} */ (error).message);
  }

  const aloneMs = rates.length * durationMs;
  if (aloneMs > (ladder.length ? budgetMs / 2 : budgetMs)) {
    return refuse(`--rates × --duration (${aloneMs / 1000} s) must be within ${ladder.length ? 'half of ' : ''}--budget (${budgetMs / 1000} s)${ladder.length ? ', the rest for the ladder' : ''}`);
  }
  const alone = await pacerAlone(rates, durationMs);
  process.stderr.write(`node ${process.version} · ${os.availableParallelism()} CPUs · load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n\nthe pacer alone, ${durationMs} ms per rate:\n`);
  process.stderr.write(`${alignColumns(['rate/s', 'packets', 'sent', 'lag p50 µs', 'lag p99 µs', 'lag max µs', 'send span ms'],
    alone.map((r) => [String(r.rate), String(r.packets), String(r.sent), fmt(r.lag_p50_us, 2), fmt(r.lag_p99_us), fmt(r.lag_max_us), fmt(r.send_span_ms)]))}\n`);

  /** @type {Record<string, any>[]} */
  const records = [];
  let pin = '';
  /** @type {string | null} */
  let cutShort = null;
  if (ladder.length) process.stderr.write(`\nagainst udsvstcp's ${SIZE} B echo server, ${trialMs} ms per transport per rate after ${warmupMs} ms warmup:\n`);
  const deadline = AbortSignal.timeout(Math.max(1, Math.round(budgetMs - (performance.now() - started))));
  let lastMs = 0;
  for (const offered of ladder) {
    if (climbed(records, transports)) break;
    if (performance.now() - started + lastMs > budgetMs) {
      cutShort = `the time budget (--budget ${values.budget}): ${offered}/s and above not offered`;
      break;
    }
    const t0 = performance.now();
    const result = await run({ workload: 'rate', rate: offered, size: SIZE, transport: values.transport, duration: `${trialMs}ms`, warmup: `${warmupMs}ms`, timeout: '3s', pin: values.pin }, {
      signal: deadline,
      onProgress: (event) => { if (event.type === 'info' && event.text.startsWith('pin ')) pin = event.text; },
    });
    lastMs = performance.now() - t0;
    if (result.interrupted) {
      cutShort = `the time budget (--budget ${values.budget}): the trial at ${offered}/s stopped, it and higher rates not measured`;
      break;
    }
    records.push(...result.rows.map((r) => ({ ...r, rate_target: r.rate_target ?? offered }))); // a failed trial's record has no figures
    process.stderr.write(`  ${offered}/s: ${result.rows.map((r) => `${r.transport} ${r.status === 'ok' ? `limit ${r.limit}, lag p99 ${fmt(r.lag_p99_us)} µs, sent ${fmt(r.rate_sent)}/s` : `failed: ${r.error}`}`).join('; ')} (${(lastMs / 1000).toFixed(1)} s)\n`);
  }
  const rows = records.map((r) => ({ ...Object.fromEntries(FIELDS.map((k) => [k, r[k] ?? null])), pacer_kept: pacerKept(r) }));
  const limits = ladder.length ? findLimits(records, transports) : [];
  if (ladder.length) process.stderr.write(`\n${toTable(rows, limits)}\n${cutShort ? `cut short by ${cutShort}\n` : ''}`);
  const elapsed = (performance.now() - started) / 1000;
  process.stderr.write(`\n${elapsed.toFixed(1)} s in all\n`);
  process.stdout.write(`${JSON.stringify({
    bench: 'pacer',
    node: process.version,
    cpus: os.availableParallelism(),
    load: os.loadavg(),
    alone: { duration_ms: durationMs, rows: alone },
    server: ladder.length ? {
      size_bytes: SIZE, trial_ms: trialMs, warmup_ms: warmupMs, pin, ladder,
      criteria: { lag_p99_us_max: LAG_P99_BOUND_US, rate_sent_tolerance: RATE_SENT_TOLERANCE, knee: 'the highest rate with limit none at it (lib/stats/knees.js)' },
      cut_short: cutShort, rows, transports: limits,
    } : null,
    elapsed_s: elapsed,
  })}\n`);
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then((code) => { process.exitCode ??= code; }, (error) => {
    process.stderr.write(`pacer: ${error.message}\n`);
    process.exitCode ??= 1;
  });
}
