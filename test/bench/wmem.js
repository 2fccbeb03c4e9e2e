#!/usr/bin/env node
/**
 * Test the stream explanation instead of guessing it. An AF_UNIX stream
 * socket's send buffer is net.core.wmem_default (212 992 B on most Linux)
 * and never grows, while loopback TCP autotunes up to tcp_wmem's maximum; so
 * a chunk larger than ~200 KiB takes several writes and wake-ups over UDS.
 * If that is what sets the stream workload's UDS/TCP ratio, raising
 * wmem_default must move it. This runs the stream groups under both with the real
 * CLI (`udsvstcp sweep --workload stream`), once with wmem_default as it is
 * and once raised (4 MiB by default), and prints per chunk size the UDS/TCP
 * GB/s ratio, the client CPU per GB of each transport and their ratio, and
 * the client's writes per chunk where trials.csv / summary.csv have them.
 *
 * The same for echo (`--workload echo`, 64 KiB × 16 by default: 1 MiB in
 * flight, more than a Unix socket's default send buffer) shows whether
 * that group's level is set by the same buffer.
 *
 *   sudo node test/bench/wmem.js [--workload stream|echo] [--sizes 64KiB,512KiB,4MiB] [--depths 16] [--runs 3] [--duration 300ms] [--warmup 100ms] [--raised 4194304] [--rounds 2]
 *
 * Each round runs both conditions, in the order A B, B A, A B …, so the
 * machine's drift weighs on both alike; the table has a row per round
 * (the round in brackets after the value), so their agreement shows.
 *
 * Root only (it writes /proc/sys/net/core/wmem_default); refuses otherwise
 * (exit 2). The old value is put back on every way out (test/bench/sysctl-guard.js).
 * The change applies to every AF_UNIX socket created on this machine while
 * it runs, not only the sweep's: keep it short on a shared machine.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { alignColumns } from './table.js';
import os from 'node:os';
import { RESTORING_SIGNALS, readSysctl, sysctlPath, withSysctl } from './sysctl-guard.js';

const BIN = fileURLToPath(new URL('../../bin/udsvstcp.js', import.meta.url));
const SYSCTL = 'net.core.wmem_default';
/**
 * What the table shows of each workload: the primary figure, the client's CPU per unit and writes per unit.
 * echo at 64 KiB × 16 puts 1 MiB in flight, more than a Unix socket's default send buffer holds.
 */
const VIEWS = /** @type {const} */ ({
  stream: { unit: 'chunk', primary: 'gb_per_s', primaryLabel: 'GB/s', cpu: 'client_cpu_ms_per_gb', cpuLabel: 'client CPU ms/GB', writes: 'client_writes_per_chunk', digits: 0, writesDigits: 1 },
  echo: { unit: 'msg', primary: 'msgs_per_s', primaryLabel: 'msgs/s', cpu: 'client_cpu_us_per_msg', cpuLabel: 'client CPU µs/msg', writes: 'client_writes_per_msg', digits: 1, writesDigits: 2 },
});
/** @typedef {keyof typeof VIEWS} Workload */

/**
 * @typedef {object} Condition
 * @property {string} wmem the value of net.core.wmem_default during the sweep
 * @property {Record<string, any>[]} summary
 * @property {Record<string, any>[]} trials
 */

/**
 * The sweep through the CLI, into a fresh directory.
 * @param {string[]} flags
 * @param {string} dir
 * @param {AbortSignal} [signal]
 */
function sweep(flags, dir, signal) {
  // flags include --workload
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, 'sweep', ...flags, '--no-probe', '--quiet', '--out', dir], { signal, maxBuffer: 1 << 24 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`udsvstcp sweep failed (${error.message.split('\n')[0]}): ${String(stderr).trim().split('\n').pop()}`));
      else resolve(undefined);
    });
  });
}

/**
 * @param {string} dir
 * @param {string} wmem
 * @returns {Condition}
 */
function readCondition(dir, wmem) {
  const csv = (/** @type {string} */ file) => /** @type {Record<string, any>[]} */ (existsSync(join(dir, file)) ? parse(readFileSync(join(dir, file), 'utf8'), { columns: true }) : []);
  return { wmem, summary: csv('summary.csv'), trials: csv('trials.csv') };
}

/** @param {unknown} v */
const num = (v) => (v === undefined || v === '' || v === null ? NaN : Number(v));

/**
 * A figure of summary.csv: the geometric mean where there is one, with its 95 % interval.
 * @param {Condition} c
 * @param {number} size
 * @param {string} transport
 * @param {string} metric
 */
function figure(c, size, transport, metric) {
  const row = c.summary.find((r) => num(r.size_bytes) === size && r.transport === transport && r.metric === metric);
  if (!row) return null;
  const value = Number.isFinite(num(row.geomean)) ? num(row.geomean) : num(row.mean);
  return { value, low: num(row.ci95_low), high: num(row.ci95_high) };
}

/**
 * Writes per unit of a transport: summary.csv's figure, else the mean of trials.csv's column, else null.
 * @param {Condition} c
 * @param {number} size
 * @param {string} transport
 * @param {string} column
 */
function writesPer(c, size, transport, column) {
  const summarised = figure(c, size, transport, column);
  if (summarised && Number.isFinite(summarised.value)) return summarised.value;
  const values = c.trials.filter((r) => num(r.size_bytes) === size && r.transport === transport && r.status === 'ok' && column in r).map((r) => num(r[column])).filter(Number.isFinite);
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}

/** @param {number} bytes */
const size = (bytes) => (bytes >= 1 << 20 ? `${bytes / (1 << 20)} MiB` : bytes >= 1024 ? `${bytes / 1024} KiB` : `${bytes} B`);
/** @param {number | null | undefined} v @param {number} [digits] */
const fmt = (v, digits = 2) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
/** @param {{ value: number, low: number, high: number } | null} f */
const ratio = (f) => (f ? `${fmt(f.value)}${Number.isFinite(f.low) ? ` [${fmt(f.low)}–${fmt(f.high)}]` : ''}` : 'n/a');

/**
 * The table: a row per chunk size and wmem_default.
 * @param {Condition[]} conditions
 * @param {Workload} [workload]
 */
export function toTable(conditions, workload = 'stream') {
  const v = VIEWS[workload];
  const sizes = [...new Set(conditions.flatMap((c) => c.summary.map((r) => num(r.size_bytes))))].sort((a, b) => a - b);
  const header = ['wmem_default', v.unit === 'chunk' ? 'chunk' : 'size', `UDS/TCP ${v.primaryLabel} [95 % CI]`, `${v.cpuLabel} TCP`, 'UDS', 'UDS/TCP', `writes/${v.unit} TCP`, 'UDS'];
  const rows = sizes.flatMap((s) => conditions.map((c) => [
    c.wmem, size(s), ratio(figure(c, s, 'uds/tcp', v.primary)),
    fmt(figure(c, s, 'tcp', v.cpu)?.value, v.digits), fmt(figure(c, s, 'uds', v.cpu)?.value, v.digits), ratio(figure(c, s, 'uds/tcp', v.cpu)),
    fmt(writesPer(c, s, 'tcp', v.writes), v.writesDigits), fmt(writesPer(c, s, 'uds', v.writes), v.writesDigits),
  ]));
  return alignColumns(header, rows);
}

async function main() {
  const { values } = parseArgs({
    options: {
      workload: { type: 'string', default: 'stream' },
      sizes: { type: 'string' },
      depths: { type: 'string' },
      runs: { type: 'string', default: '3' },
      duration: { type: 'string', default: '300ms' },
      warmup: { type: 'string', default: '100ms' },
      raised: { type: 'string', default: String(4 * 1024 * 1024) },
      rounds: { type: 'string', default: '2' },
    },
  });
  if (!/^\d+$/.test(values.raised) || Number(values.raised) < 4096) {
    process.stderr.write(`wmem bench: --raised must be a byte count of at least 4096, e.g. 4194304; got ${values.raised}\n`);
    return 2;
  }
  if (!/^\d+$/.test(values.rounds) || Number(values.rounds) < 1 || Number(values.rounds) > 10) {
    process.stderr.write(`wmem bench: --rounds must be a whole number from 1 to 10, e.g. 2; got ${values.rounds}\n`);
    return 2;
  }
  const rounds = Number(values.rounds);
  if (!(values.workload in VIEWS)) {
    process.stderr.write(`wmem bench: --workload must be stream or echo; got ${values.workload}\n`);
    return 2;
  }
  const workload = /** @type {Workload} */ (values.workload);
  const sizes = values.sizes ?? (workload === 'stream' ? '64KiB,512KiB,4MiB' : '64KiB');
  const depths = values.depths ?? (workload === 'stream' ? null : '16');
  const path = sysctlPath(SYSCTL);
  if (process.platform !== 'linux' || !existsSync(path)) {
    process.stderr.write(`wmem bench: needs Linux (${path} not found)\n`);
    return 2;
  }
  if (process.getuid?.() !== 0) {
    process.stderr.write(`wmem bench: needs root: it sets ${SYSCTL} for the length of the run (and puts it back); run it as root, e.g. sudo npm run bench:wmem\n`);
    return 2;
  }
  const flags = ['--workload', workload, '--sizes', sizes, ...(depths ? ['--depths', depths] : []), '--runs', values.runs, '--precision', '100%', '--duration', values.duration, '--warmup', values.warmup];
  const before = readSysctl(path);
  // a signal stops the sweep under way (and, while the value is raised, the guard puts it back first)
  const stop = new AbortController();
  const onSignal = (/** @type {NodeJS.Signals} */ name) => {
    process.exitCode = 128 + os.constants.signals[name];
    stop.abort(new Error(`${name} received`));
  };
  for (const name of RESTORING_SIGNALS) process.on(name, onSignal);
  const root = await mkdtemp(join(tmpdir(), 'udsvstcp-wmem-'));
  try {
    /** @type {Condition[]} */
    const conditions = [];
    const asIs = async (/** @type {number} */ round) => {
      process.stderr.write(`round ${round}: ${workload} sweep (${flags.join(' ')}) with ${SYSCTL} = ${before} (as it is)…\n`);
      await sweep(flags, join(root, `default-${round}`), stop.signal);
      conditions.push(readCondition(join(root, `default-${round}`), `${before} (${round})`));
    };
    const raised = (/** @type {number} */ round) => withSysctl(path, values.raised, async (signal) => {
      const now = readSysctl(path);
      process.stderr.write(`round ${round}: ${workload} sweep with ${SYSCTL} = ${now}…\n`);
      await sweep(flags, join(root, `raised-${round}`), AbortSignal.any([signal, stop.signal]));
      conditions.push(readCondition(join(root, `raised-${round}`), `${now} (${round})`));
    });
    // interleaved, in the order A B B A A B …, so a drift of the machine weighs on both alike
    for (let round = 1; round <= rounds; round++) {
      if (round % 2 === 1) {
        await asIs(round);
        await raised(round);
      } else {
        await raised(round);
        await asIs(round);
      }
    }
    process.stderr.write(`${SYSCTL} is back at ${readSysctl(path)}\n\n`);
    conditions.sort((a, b) => Number(a.wmem.split(' ')[0]) - Number(b.wmem.split(' ')[0]) || a.wmem.localeCompare(b.wmem));
    process.stdout.write(`${toTable(conditions, workload)}\n`);
    return 0;
  } finally {
    for (const name of RESTORING_SIGNALS) process.off(name, onSignal);
    await rm(root, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then((code) => { process.exitCode ??= code; }, (error) => {
    process.stderr.write(`wmem bench: ${error.message}\n`);
    process.exitCode ??= 1;
  });
}
