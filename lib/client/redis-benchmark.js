/**
 * The C reference beside the redis workload: redis-benchmark (Debian's redis-tools) against the same redis-server,
 * SET and GET of the same value size, as many connections as the Node client's --clients, each with the commands the
 * Node client has in flight on one pipelined (referencePipeline), over TCP (-h -p) or the socket (-s) as the target's
 * transport says (./transport.js). It checks no reply: it shows what the kernel and the server give without a Node client.
 */
import { execFile } from 'node:child_process';
import { RunError } from '../core/errors.js';
import { findIn, programDirs, programVersion } from '../core/programs.js';
import { socketAddress } from './transport.js';

/** The commands it runs, as redis-benchmark names them in -t and in its CSV. */
const TESTS = ['SET', 'GET'];

/**
 * @typedef {object} ReferenceRow one command's figures from redis-benchmark --csv
 * @property {string} test SET or GET
 * @property {number} requests
 * @property {number} rps
 * @property {number} avg_latency_us
 * @property {number} p50_latency_us
 * @property {number} p99_latency_us
 */

/** redis-benchmark on PATH or in /usr/bin, or null. */
export function findRedisBenchmark() {
  return findIn('redis-benchmark', programDirs(['/usr/bin'])) ?? null;
}

/**
 * Which redis-benchmark a path is, for people and meta.json: its `--version` (7.0.15), or why there is none.
 * @param {string} path from findRedisBenchmark
 * @returns {{ path: string, version: string }}
 */
export function describeRedisBenchmark(path) {
  return { path, version: programVersion(path, '--version', /redis-benchmark (\S{1,40})/) };
}

/**
 * Parse redis-benchmark --csv: a header line, then `"SET","5221.93","0.180",…` per test (latencies in ms).
 * @param {string} text
 * @returns {ReferenceRow[]}
 */
function parseBenchmarkCsv(text, requests = 0) {
  const lines = text.trim().split('\n').map((line) => line.trim().split(',').map((cell) => cell.replace(/^"|"$/g, '')));
  const header = lines[0] ?? [];
  const at = (/** @type {string[]} */ cells, /** @type {string} */ name) => Number(cells[header.indexOf(name)]);
  return lines.slice(1).filter((cells) => TESTS.includes(cells[0])).map((cells) => ({
    test: cells[0],
    requests,
    rps: at(cells, 'rps'),
    avg_latency_us: at(cells, 'avg_latency_ms') * 1000,
    p50_latency_us: at(cells, 'p50_latency_ms') * 1000,
    p99_latency_us: at(cells, 'p99_latency_ms') * 1000,
  }));
}

/**
 * redis-benchmark's -P for a trial: the commands its Node client has in flight per connection. Without pipeline() a
 * loop has one command in flight (its SET, then its GET): depth; with pipelines of `batch` ops a loop has 2 × batch.
 * @param {number} depth
 * @param {number} batch
 */
const referencePipeline = (depth, batch) => (batch === 1 ? depth : depth * 2 * batch);

/**
 * Run redis-benchmark once against a target.
 * @param {{ binary: string, target: import('./transport.js').Target, size: number, depth: number, clients?: number, batch?: number, requests: number, prefix?: string[], timeoutMs?: number, signal?: AbortSignal }} options
 *   prefix: e.g. taskset for the client's CPU; signal: aborted, it is killed; clients, batch: the trial's (-c clients,
 *   -P referencePipeline)
 * @returns {Promise<ReferenceRow[]>}
 */
export function runRedisBenchmark({ binary, target, size, depth, clients = 1, batch = 1, requests, prefix = [], timeoutMs = 60_000, signal }) {
  const address = socketAddress(target);
  const where = address.path !== undefined ? ['-s', address.path] : ['-h', String(address.host), '-p', String(address.port)];
  const args = [...where, '-t', TESTS.join(',').toLowerCase(), '-d', String(size), '-c', String(clients), '-P', String(referencePipeline(depth, batch)), '-n', String(requests), '--csv'];
  const [command, ...rest] = [...prefix, binary, ...args];
  return new Promise((resolve, reject) => {
    execFile(command, rest, { timeout: timeoutMs, killSignal: 'SIGKILL', signal, maxBuffer: 1 << 20, encoding: 'utf8' }, (error, stdout, stderr) => {
      const rows = parseBenchmarkCsv(String(stdout ?? ''), requests);
      if (error || rows.length !== TESTS.length) {
        const why = signal?.aborted ? 'interrupted' : error?.killed ? `killed after ${timeoutMs} ms` : (String(stderr ?? '').trim().split('\n').pop() || error?.message || 'no CSV rows');
        reject(new RunError(`redis-benchmark ${args.join(' ')}: ${why}`, 'ERR_REDIS_BENCHMARK'));
        return;
      }
      resolve(rows);
    });
  });
}
