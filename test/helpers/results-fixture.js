/**
 * Small hand-written results for exact-string tests, a writer that lays
 * trial rows and meta.json out as a results directory, and helpers that copy
 * a real results directory, edit its trials.csv or meta.json, and record its
 * files to show that a command changed none of them.
 */
import { createHash } from 'node:crypto';
import { cp, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { createRecord, errorRecord } from '../../lib/trial/record.js';
import { toCsv } from '../../lib/results/csv.js';
import { trialColumns } from '../../lib/results/writer.js';

/** trials.csv's columns of an echo sweep */
const TRIAL_COLUMNS = trialColumns('echo');

/**
 * A trial row that succeeded.
 * @param {number} run
 * @param {string} transport tcp, uds or any other (lib/transports/)
 * @param {number} size
 * @param {number} depth
 * @param {number} msgs msgs/s; the other figures follow from it
 */
export function okRow(run, transport, size, depth, msgs) {
  return {
    run, order: 0,
    ...createRecord({
      workload: 'echo', transport, size_bytes: size, depth, packets: 1000, elapsed_ms: 1e6 / msgs, msgs_per_s: msgs, mb_per_s: (msgs * size) / 1e6,
      rtt_mean_us: (1e6 * depth) / msgs, rtt_p50_us: (1e6 * depth) / msgs, rtt_p99_us: (2e6 * depth) / msgs,
      client_cpu_us_per_msg: 1e6 / msgs / 2, server_cpu_us_per_msg: 1e6 / msgs / 3, client_elu: 0.5, server_elu: 0.4,
    }),
  };
}

/**
 * A postgres trial row that succeeded: its size is the lookups per query (0: SELECT 1, 1: pgbench -S's lookup), not bytes.
 * @param {number} run
 * @param {string} transport tcp or uds
 * @param {number} size 0 or 1
 * @param {number} depth connections
 * @param {number} queries queries/s; the other figures follow from it
 */
export function queryRow(run, transport, size, depth, queries) {
  return {
    run, order: 0,
    ...createRecord({
      workload: 'postgres', transport, size_bytes: size, depth, queries: 1000, blocks: 2, block_queries: 500, elapsed_ms: 1e6 / queries, queries_per_s: queries,
      latency_mean_us: (1e6 * depth) / queries, latency_p50_us: (1e6 * depth) / queries, latency_p99_us: (2e6 * depth) / queries,
      client_cpu_us_per_query: 1e6 / queries / 2, server_cpu_us_per_query: 1e6 / queries / 3, client_elu: 0.5,
    }),
  };
}

/**
 * A trial row that failed.
 * @param {number} run
 * @param {'tcp' | 'uds'} transport
 * @param {number} size
 * @param {number} depth
 * @param {string} message
 */
export function errorRow(run, transport, size, depth, message) {
  return { run, order: 0, ...errorRecord({ workload: 'echo', transport, size_bytes: size, depth }, new Error(message)) };
}

/**
 * Write trials.csv (and meta.json unless null) into dir.
 * @param {string} dir
 * @param {Record<string, any>[]} rows
 * @param {Record<string, any> | null} [meta]
 */
export async function writeResults(dir, rows, meta = { status: 'complete' }) {
  await writeFile(join(dir, 'trials.csv'), toCsv(rows, TRIAL_COLUMNS));
  if (meta) await writeFile(join(dir, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
}

/** Environment as meta.json records it. */
export const ENVIRONMENT = { udsvstcp: '0.1.0', node: '20.20.2', libuv: '1.46.0', platform: 'linux', os_release: '6.1.0', arch: 'x64', cpu_model: 'Test CPU', cpu_count: 2 };

/**
 * A copy of a results directory, every file's bytes and times kept.
 * @param {string} from
 * @param {string} to
 */
export async function copyResults(from, to) {
  await cp(from, to, { recursive: true, preserveTimestamps: true, errorOnExist: true, force: false });
  return to;
}

/**
 * Rewrite trials.csv through `edit`, which gets and returns its records (the header first).
 * @param {string} dir
 * @param {(records: string[][]) => string[][]} edit
 */
export async function editTrialsCsv(dir, edit) {
  const path = join(dir, 'trials.csv');
  const records = parse(await readFile(path, 'utf8'), { relax_column_count: true });
  await writeFile(path, stringify(edit(records)));
}

/**
 * Rewrite meta.json through `edit`.
 * @param {string} dir
 * @param {(meta: Record<string, any>) => void} edit changes the object in place
 */
export async function editMetaJson(dir, edit) {
  const path = join(dir, 'meta.json');
  const meta = JSON.parse(await readFile(path, 'utf8'));
  edit(meta);
  await writeFile(path, `${JSON.stringify(meta, null, 2)}\n`);
}

/**
 * Every file of a directory with the SHA-256 of its bytes and its
 * modification time, for a test to compare before and after.
 * @param {string} dir
 * @returns {Promise<Record<string, { sha256: string, mtimeMs: number }>>}
 */
export async function snapshotFiles(dir) {
  /** @type {Record<string, { sha256: string, mtimeMs: number }>} */
  const files = {};
  for (const name of (await readdir(dir)).sort()) {
    files[name] = { sha256: createHash('sha256').update(await readFile(join(dir, name))).digest('hex'), mtimeMs: (await stat(join(dir, name))).mtimeMs };
  }
  return files;
}

/**
 * meta.json as a complete echo sweep of this Node writes it, for results
 * made by hand from literal rows: the spec, environment and nodes keys a real
 * sweep records (test/fixtures/schema pins what `report --json` takes from
 * them), the sizes, depths and runs given.
 * @param {{ sizes: number[], depths: number[], runs: number }} plan
 * @param {Record<string, any>} [overrides] top-level keys to add or replace
 */
export function sweepMeta({ sizes, depths, runs }, overrides = {}) {
  const spec = {
    preset: 'quick', description: 'results written by a test', test: true, workload: 'echo', sizes, depths, transports: ['tcp', 'uds'], runs,
    measure: { packets: 100 }, warmup: { packets: 10 }, seed: 3, pin: 'split', noDelay: true, greeting: false, pipelining: 1, clients: 1, batch: 1, keepalive: false, arrivals: 'constant',
    timeoutMs: 5000, trialTimeoutMs: 60000, pairing: 'blocks', server: 'sweep', intervals: 'moderated', blockMs: 10, precision: null, maxTimeMs: null,
    maxRuns: 1000, node: null, serverNetns: false, portProxy: false,
  };
  const environment = {
    ...ENVIRONMENT, node: process.versions.node, v8: process.versions.v8, libuv: process.versions.uv, cpu_governor: null, total_memory_bytes: 8589934592,
    loadavg: [0.5, 0.4, 0.3], stream_high_water_mark_bytes: 16384, net: { ip_local_port_range: '32768-60999', tcp_tw_reuse: 2, somaxconn: 4096 },
  };
  const nodes = [{ version: process.version, v8: process.versions.v8, libuv: process.versions.uv, path: process.execPath, given: process.execPath }];
  return { status: 'complete', seed: 3, spec, environment, nodes, trials_planned: sizes.length * depths.length * runs * 2, ...overrides };
}
