#!/usr/bin/env node
/**
 * npm run bench: what does the udsvstcp harness cost?
 *
 * Runs udsvstcp's echo trial and a bare, idiomatic Node client (no
 * measurement code but one clock read at the start and end of the measured
 * packets) against the same echo server, each in a fresh child process,
 * alternating order round by round. Sizes 1 B … 64 KiB, both transports,
 * depth 1 (ping-pong) and depth 64 (pipelined).
 *
 * Budget: harness mean RTT at depth 1 at most 10 % above bare (ratio ≤ 1.10);
 * harness msgs/s at depth 64 at most 10 % below bare (ratio ≥ 0.90).
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
import { spawnServer } from '../../lib/server-process.js';
import { runTrial } from '../../lib/trial.js';

const SELF = fileURLToPath(import.meta.url);
const run = promisify(execFile);

/**
 * The bare client: write a packet, count echoed bytes, write the next.
 * @param {{ target: any, size: number, depth: number, warmup: number, packets: number }} job
 */
function bare({ target, size, depth, warmup, packets }) {
  return new Promise((resolve, reject) => {
    const socket = target.transport === 'tcp' ? net.connect({ host: target.host, port: target.port, noDelay: true }) : net.connect({ path: target.path });
    const payload = randomBytes(size);
    const total = warmup + packets;
    let sent = 0;
    let bytes = 0;
    let start = 0;
    socket.on('error', reject);
    socket.on('connect', () => {
      while (sent < total && sent < depth) { socket.write(payload); sent++; }
    });
    socket.on('data', (chunk) => {
      bytes += chunk.length;
      const done = Math.floor(bytes / size);
      if (start === 0 && done >= warmup) start = performance.now();
      while (sent < total && sent - done < depth) { socket.write(payload); sent++; }
      if (done === total) {
        const elapsedMs = performance.now() - start;
        socket.end();
        resolve({ rtt_mean_us: (elapsedMs * 1000) / packets, msgs_per_s: packets / (elapsedMs / 1000) });
      }
    });
  });
}

/** @param {any} job */
async function harness(job) {
  const record = await runTrial({
    workload: 'echo', target: job.target, size: job.size, depth: job.depth,
    measure: { packets: job.packets }, warmup: { packets: job.warmup },
    seed: 1, noDelay: true, timeoutMs: 10_000,
  });
  if (record.status !== 'ok') throw new Error(String(record.error));
  return { rtt_mean_us: record.rtt_mean_us, msgs_per_s: record.msgs_per_s };
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
          const packets = depth === 1 ? 10_000 : Math.min(200_000, Math.max(2000, Math.floor(2 ** 30 / size)));
          const job = { target: targets[transport], size, depth, warmup: Math.max(500, Math.floor(packets / 10)), packets };
          /** @type {Record<string, any[]>} */
          const results = { bare: [], harness: [] };
          for (let round = 0; round < rounds; round++) {
            const order = round % 2 === 0 ? ['bare', 'harness'] : ['harness', 'bare'];
            for (const kind of order) {
              const { stdout } = await run(process.execPath, [SELF, '--child', kind, JSON.stringify(job)], { timeout: 120_000 });
              results[kind].push(JSON.parse(stdout));
            }
          }
          const metric = depth === 1 ? 'rtt_mean_us' : 'msgs_per_s';
          const b = median(results.bare.map((r) => r[metric]));
          const h = median(results.harness.map((r) => r[metric]));
          const ratio = h / b;
          const ok = depth === 1 ? ratio <= 1.10 : ratio >= 0.90;
          rows.push({ depth, size, transport, metric, bare: b, harness: h, ratio, ok });
          process.stderr.write(`  depth ${depth} size ${size} ${transport}: ${metric} bare ${b.toFixed(1)} harness ${h.toFixed(1)} ratio ${ratio.toFixed(3)}${ok ? '' : '  OVER BUDGET'}\n`);
        }
      }
    }
  } finally {
    await server.stop();
  }
  process.stdout.write('| depth | size B | transport | metric | bare | udsvstcp | ratio | budget |\n|---:|---:|---|---|---:|---:|---:|---|\n');
  for (const r of rows) {
    process.stdout.write(`| ${r.depth} | ${r.size} | ${r.transport} | ${r.metric} | ${r.bare.toFixed(1)} | ${r.harness.toFixed(1)} | ${r.ratio.toFixed(3)} | ${r.ok ? 'ok' : 'over'} |\n`);
  }
  const over = rows.filter((r) => !r.ok).length;
  process.stderr.write(`${rows.length - over} of ${rows.length} within budget (depth 1: RTT ratio ≤ 1.10; depth 64: msgs/s ratio ≥ 0.90)\n`);
}

if (process.argv[2] === '--child') {
  const job = JSON.parse(process.argv[4]);
  const result = process.argv[3] === 'bare' ? await bare(job) : await harness(job);
  process.stdout.write(JSON.stringify(result));
} else {
  await parent();
}
