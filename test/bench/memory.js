#!/usr/bin/env node
/**
 * Does the client's memory stay flat in the packet count? Runs one echo
 * trial per case in a fresh child process against an echo server in
 * another, and prints the child's peak resident set size
 * (process.resourceUsage().maxRSS) after the trial. RTTs go to a fixed-size
 * HDR histogram, so 10^7 packets should need no more memory than 10^5.
 *
 *   node test/bench/memory.js [--transport uds]
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { spawnServer } from '../../lib/fixture/server-process.js';
import { runTrial } from '../../lib/trial/trial.js';

const SELF = fileURLToPath(import.meta.url);
const run = promisify(execFile);
const MiB = 1024 * 1024;

/** @param {any} job */
async function child(job) {
  const { records: [record] } = await runTrial({
    workload: 'echo', targets: [job.target], size: job.size, depth: job.depth,
    measure: { packets: job.packets }, warmup: { packets: 0 }, seed: 1, noDelay: true, timeoutMs: 30_000,
  });
  if (record.status !== 'ok') throw new Error(String(record.error));
  return { packets: record.packets, maxRssBytes: process.resourceUsage().maxRSS * 1024 };
}

async function parent() {
  const { values } = parseArgs({ options: { transport: { type: 'string', default: 'uds' } } });
  const server = await spawnServer();
  const target = values.transport === 'tcp' ? { transport: 'tcp', ...server.tcp } : { transport: 'uds', path: server.uds.path };
  const cases = [
    { size: 1, depth: 64, packets: 100_000 },
    { size: 1, depth: 64, packets: 1_000_000 },
    { size: 1, depth: 64, packets: 10_000_000 },
    { size: 16 * MiB, depth: 4, packets: 64 },
  ];
  process.stdout.write(`| transport | size B | depth | packets | peak RSS MB |\n|---|---:|---:|---:|---:|\n`);
  try {
    for (const c of cases) {
      const { stdout } = await run(process.execPath, [SELF, '--child', JSON.stringify({ ...c, target })], { timeout: 600_000, maxBuffer: 1 << 20 });
      const result = JSON.parse(stdout);
      process.stdout.write(`| ${values.transport} | ${c.size} | ${c.depth} | ${result.packets} | ${(result.maxRssBytes / 1e6).toFixed(1)} |\n`);
    }
  } finally {
    await server.stop();
  }
}

if (process.argv[2] === '--child') process.stdout.write(JSON.stringify(await child(JSON.parse(process.argv[3]))));
else await parent();
