#!/usr/bin/env node
/**
 * npm run bench: what does the udsvstcp harness cost?
 *
 * Runs udsvstcp's echo trial and a bare, idiomatic Node client (write a
 * packet, count echoed bytes, write the next; one buffer resent, nothing
 * verified) against the same echo server, each in a fresh child process,
 * alternating order round by round. Sizes 1 B … 64 KiB, both transports,
 * depth 1 (ping-pong) and depth 64 (pipelined).
 *
 * Both sides report the same two quantities, measured the same way over
 * their measured phase (100 ms warmup, then 500 ms): msgs/s = packets ÷ the
 * wall time that carried them, and client CPU µs per message =
 * process.cpuUsage() over that time ÷ packets. udsvstcp measures in blocks
 * (its figures are summed over them, as in a sweep); the bare client counts
 * from the arrival of its last warmup packet to the arrival of its last
 * measured one.
 *
 * Budget: udsvstcp msgs/s at least 0.90 × bare, and client CPU per message
 * at most 1.10 × bare, at both depths.
 *
 *   node test/bench/overhead.js [--rounds 5] [--sizes 1,64,1024,16384,65536]
 */
import { execFile } from 'node:child_process';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { spawnServer } from '../../lib/fixture/server-process.js';
import { runTrial } from '../../lib/trial/trial.js';

const SELF = fileURLToPath(import.meta.url);
const run = promisify(execFile);

const WARMUP_MS = 100;
const MEASURE_MS = 500;

/**
 * The bare client: write a packet, count echoed bytes, write the next.
 * @param {{ target: any, size: number, depth: number }} job
 */
function bare({ target, size, depth }) {
  return new Promise((resolve, reject) => {
    const socket = target.transport === 'tcp' ? net.connect({ host: target.host, port: target.port, noDelay: true }) : net.connect({ path: target.path });
    const payload = randomBytes(size);
    let sent = 0;
    let bytes = 0;
    let stop = Infinity; // packets to send in all, once the measured time is up
    let began = 0;
    /** @type {{ at: number, done: number, cpu: NodeJS.CpuUsage } | undefined} */
    let start;
    socket.on('error', reject);
    socket.on('connect', () => {
      began = performance.now();
      while (sent < depth) { socket.write(payload); sent++; }
    });
    socket.on('data', (chunk) => {
      bytes += chunk.length;
      const done = Math.floor(bytes / size);
      const now = performance.now();
      if (!start && now - began >= WARMUP_MS && bytes % size === 0) start = { at: now, done, cpu: process.cpuUsage() };
      if (start && stop === Infinity && now - start.at >= MEASURE_MS && bytes % size === 0) {
        const cpu = process.cpuUsage(start.cpu);
        const packets = done - start.done;
        stop = sent;
        resolve({ msgs_per_s: packets / ((now - start.at) / 1000), cpu_us_per_msg: (cpu.user + cpu.system) / packets });
      }
      while (sent < stop && sent - done < depth) { socket.write(payload); sent++; }
      if (done === stop) socket.end();
    });
  });
}

/** @param {any} job */
async function harness(job) {
  const { records: [record] } = await runTrial({
    workload: 'echo', targets: [job.target], size: job.size, depth: job.depth,
    measure: { ms: MEASURE_MS }, warmup: { ms: WARMUP_MS },
    seed: 1, noDelay: true, timeoutMs: 10_000,
  });
  if (record.status !== 'ok') throw new Error(String(record.error));
  return { msgs_per_s: record.msgs_per_s, cpu_us_per_msg: record.client_cpu_us_per_msg };
}

/** @param {number[]} values */
const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function parent() {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, sizes: { type: 'string', default: '1,64,1024,16384,65536' } } });
  const rounds = Number(values.rounds);
  const sizes = values.sizes.split(',').map(Number);
  const server = await spawnServer();
  const targets = { tcp: { transport: 'tcp', ...server.tcp }, uds: { transport: 'uds', path: server.uds.path } };
  process.stderr.write(`harness overhead: node ${process.version}, ${rounds} rounds, server pid ${server.pid}\n`);
  const rows = [];
  try {
    for (const depth of [1, 64]) {
      for (const size of sizes) {
        for (const transport of /** @type {const} */ (['tcp', 'uds'])) {
          const job = { target: targets[transport], size, depth };
          /** @type {Record<string, any[]>} */
          const results = { bare: [], harness: [] };
          for (let round = 0; round < rounds; round++) {
            const order = round % 2 === 0 ? ['bare', 'harness'] : ['harness', 'bare'];
            for (const kind of order) {
              const { stdout } = await run(process.execPath, [SELF, '--child', kind, JSON.stringify(job)], { timeout: 120_000 });
              results[kind].push(JSON.parse(stdout));
            }
          }
          const pick = (/** @type {string} */ kind, /** @type {string} */ metric) => median(results[kind].map((r) => r[metric]));
          const msgs = pick('harness', 'msgs_per_s') / pick('bare', 'msgs_per_s');
          const cpu = pick('harness', 'cpu_us_per_msg') / pick('bare', 'cpu_us_per_msg');
          const ok = msgs >= 0.9 && cpu <= 1.1;
          rows.push({ depth, size, transport, msgs, cpu, ok, bareMsgs: pick('bare', 'msgs_per_s'), bareCpu: pick('bare', 'cpu_us_per_msg') });
          process.stderr.write(`  depth ${depth} size ${size} ${transport}: msgs/s ×${msgs.toFixed(3)} of bare (${Math.round(pick('bare', 'msgs_per_s'))}), CPU/msg ×${cpu.toFixed(3)} of bare (${pick('bare', 'cpu_us_per_msg').toFixed(2)} µs)${ok ? '' : '  OVER BUDGET'}\n`);
        }
      }
    }
  } finally {
    await server.stop();
  }
  process.stdout.write('| depth | size B | transport | bare msgs/s | udsvstcp/bare msgs/s | bare CPU µs/msg | udsvstcp/bare CPU/msg | budget |\n|---:|---:|---|---:|---:|---:|---:|---|\n');
  for (const r of rows) {
    process.stdout.write(`| ${r.depth} | ${r.size} | ${r.transport} | ${Math.round(r.bareMsgs)} | ${r.msgs.toFixed(3)} | ${r.bareCpu.toFixed(2)} | ${r.cpu.toFixed(3)} | ${r.ok ? 'ok' : 'over'} |\n`);
  }
  const over = rows.filter((r) => !r.ok).length;
  process.stderr.write(`${rows.length - over} of ${rows.length} within budget (msgs/s ≥ 0.90 × bare, client CPU/msg ≤ 1.10 × bare)\n`);
}
if (process.argv[2] === '--child') {
  const job = JSON.parse(process.argv[4]);
  const result = process.argv[3] === 'bare' ? await bare(job) : await harness(job);
  process.stdout.write(JSON.stringify(result));
} else {
  await parent();
}
