#!/usr/bin/env node
/**
 * A connection burst beyond the listen backlog, changed by changing the
 * backlog. A Unix socket's connect() fails at once with EAGAIN when the
 * listener's accept queue is full; loopback TCP drops the SYN and the client
 * sends it again a second later. This opens `--connections` connections at
 * once (one loop of net.connect calls in this process) against the echo
 * server of udsvstcp (a child process, accepting as it always does) over UDS
 * and over TCP, with the server listening with `--backlog` (128) and with a
 * backlog of at least the burst, in interleaved rounds (UDS first, then TCP
 * first, …), and prints per round how many connects failed (and why) and the
 * connect time, from each net.connect call to its 'connect' event, p50 and
 * p99 and the largest, of those that connected.
 *
 *   node test/bench/backlog.js [--connections 1024] [--backlog 128] [--rounds 5]
 *
 * net.core.somaxconn caps any backlog: a burst larger than it is refused (exit 2).
 */
import net from 'node:net';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { NODE_BACKLOG } from '../../lib/core/backlog.js';
import { readNetLimits } from '../../lib/core/environment.js';
import { readOpenFileLimit } from '../../lib/core/resources.js';
import { spawnServer } from '../../lib/fixture/server-process.js';
import { alignColumns } from './table.js';

/**
 * @typedef {object} Outcome one burst
 * @property {number} backlog
 * @property {'uds' | 'tcp'} transport
 * @property {number} round
 * @property {number} connections
 * @property {number[]} ms connect times of those that connected
 * @property {Record<string, number>} failed by error code
 */

/**
 * Open `n` connections at once; wait until each has connected or failed, then close them all.
 * @param {import('node:net').NetConnectOpts} to
 * @param {number} n
 * @returns {Promise<{ ms: number[], failed: Record<string, number> }>}
 */
async function burst(to, n) {
  /** @type {net.Socket[]} */
  const sockets = [];
  /** @type {Promise<number | string>[]} */
  const settled = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    const socket = net.connect(to);
    sockets.push(socket);
    settled.push(new Promise((resolve) => {
      socket.once('connect', () => resolve(performance.now() - start));
      socket.once('error', (error) => resolve(/** @type {NodeJS.ErrnoException} */ (error).code ?? error.message));
    }));
  }
  const outcomes = await Promise.all(settled);
  for (const socket of sockets) socket.destroy();
  /** @type {Record<string, number>} */
  const failed = {};
  for (const o of outcomes) if (typeof o === 'string') failed[o] = (failed[o] ?? 0) + 1;
  return { ms: /** @type {number[]} */ (outcomes.filter((o) => typeof o === 'number')), failed };
}

/**
 * @param {number[]} sorted ascending
 * @param {number} p 0 to 100
 */
const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);
/** @param {number} v */
const ms = (v) => (Number.isFinite(v) ? v.toFixed(1) : 'n/a');

/**
 * The table: a row per backlog, transport and round, then one per backlog and transport over all rounds.
 * @param {Outcome[]} outcomes
 */
export function toTable(outcomes) {
  const header = ['backlog', 'transport', 'round', 'connects', 'failed', 'p50 ms', 'p99 ms', 'max ms'];
  /** @param {string} round @param {Outcome[]} of */
  const row = (round, of) => {
    const times = of.flatMap((o) => o.ms).sort((a, b) => a - b);
    /** @type {Record<string, number>} */
    const failed = {};
    for (const o of of) for (const [code, count] of Object.entries(o.failed)) failed[code] = (failed[code] ?? 0) + count;
    const fails = Object.entries(failed).map(([code, count]) => `${count} ${code}`).join(', ') || '0';
    return [String(of[0].backlog), of[0].transport.toUpperCase(), round, String(of.reduce((a, o) => a + o.connections, 0)), fails, ms(percentile(times, 50)), ms(percentile(times, 99)), ms(times[times.length - 1] ?? NaN)];
  };
  const keys = [...new Set(outcomes.map((o) => `${o.backlog}|${o.transport}`))];
  const rows = keys.flatMap((key) => {
    const of = outcomes.filter((o) => `${o.backlog}|${o.transport}` === key);
    return [...of.map((o) => row(String(o.round), [o])), ...(of.length > 1 ? [row('all', of)] : [])];
  });
  return alignColumns(header, rows);
}

/**
 * @param {string} text
 * @param {string} flag
 * @param {number} min
 * @param {number} max
 * @param {string} example
 */
function wholeNumber(text, flag, min, max, example) {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new Error(`${flag} must be a whole number from ${min} to ${max}, e.g. ${example}; got ${text}`);
  }
  return Number(text);
}

async function main() {
  const { values } = parseArgs({
    options: {
      connections: { type: 'string', default: '1024' },
      backlog: { type: 'string', default: '128' },
      rounds: { type: 'string', default: '5' },
    },
  });
  const somaxconn = readNetLimits().somaxconn;
  let n;
  let small;
  let rounds;
  try {
    n = wholeNumber(values.connections, '--connections', 2, somaxconn ?? 65535, '1024');
    small = wholeNumber(values.backlog, '--backlog', 1, n - 1, '128');
    rounds = wholeNumber(values.rounds, '--rounds', 1, 20, '5');
  } catch (error) {
    process.stderr.write(`backlog bench: ${/** @type {Error} */ (error).message}${somaxconn !== null && /^--connections/.test(/** @type {Error} */ (error).message) ? ` (net.core.somaxconn ${somaxconn} caps any backlog)` : ''}\n`);
    return 2;
  }
  const files = readOpenFileLimit();
  if (files !== null && files < n + 100) {
    process.stderr.write(`backlog bench: --connections ${n} needs ${n + 100} open files, over the limit of ${files} (ulimit -Hn); use --connections ${files - 100} or less\n`);
    return 2;
  }
  const large = Math.max(n, NODE_BACKLOG);
  const command = `node test/bench/backlog.js --connections ${n} --backlog ${small} --rounds ${rounds}`;
  process.stdout.write(`${command}\n${new Date().toISOString()} · node ${process.versions.node} · ${os.availableParallelism()} CPUs (${os.cpus()[0]?.model ?? 'cpu'}) · linux ${os.release()} · net.core.somaxconn ${somaxconn ?? 'unknown'} · load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
  process.stdout.write(`${n} connects at once per burst, against udsvstcp's echo server listening with backlog ${small} and ${large}\n\n`);
  const servers = await Promise.all([small, large].map((backlog) => spawnServer({ backlog })));
  try {
    /** @type {Outcome[]} */
    const outcomes = [];
    for (let round = 0; round < rounds; round++) {
      /** @type {('uds' | 'tcp')[]} */
      const order = round % 2 === 0 ? ['uds', 'tcp'] : ['tcp', 'uds'];
      for (const [i, backlog] of [small, large].entries()) {
        for (const transport of order) {
          const to = transport === 'uds' ? { path: servers[i].uds.path } : { host: servers[i].tcp.host, port: servers[i].tcp.port };
          const { ms: times, failed } = await burst(to, n);
          outcomes.push({ backlog, transport, round, connections: n, ms: times, failed });
          process.stderr.write(`round ${round}: backlog ${backlog} ${transport}: ${times.length} of ${n} connected\n`);
        }
      }
    }
    process.stdout.write(`${toTable(outcomes)}\n`);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then((code) => { process.exitCode = code; }, (error) => {
    process.stderr.write(`backlog bench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
