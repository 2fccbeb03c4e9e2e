#!/usr/bin/env node
/**
 * npm run bench:independent: does udsvstcp's echo agree with an instrument
 * that shares no code with it?
 *
 * For each round, size, depth and transport X, runs the independent scripts
 * of test/bench/independent/ (node: built-ins only, nothing from lib/) for
 * tcp and for X, and `udsvstcp run --transport tcp,X --json` with the same
 * size, depth, duration and warm-up, alternating which instrument goes first
 * from round to round. Then, per (size, depth, X): the median msgs/s under
 * each instrument, udsvstcp ÷ independent (median of the per-round ratios),
 * X/TCP under each (median of the per-round ratios) and whether the two
 * agree within 10 %. A Markdown table on stdout, progress on stderr.
 *
 *   node test/bench/independent.js [--rounds 3] [--duration 2s] [--warmup 0.5s]
 *     [--sizes 1KiB] [--depths 1,16] [--transports tcp,uds,uds-abstract,ipc-json,ipc-advanced,worker]
 *     [--pin split|same|none]
 *
 * --pin split puts the server end on CPU 0 and the client on CPU 1 (same:
 * both on CPU 0) under both instruments; udsvstcp gets --pin only where its
 * `run --help` lists it (else its runs are unpinned, and the output says so).
 * Exit 0 all ran, 1 some run failed (its cells n/a), 2 bad options.
 */
import { spawn, execFileSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseBytes, parseMs } from './independent/common.js';

const BIN = fileURLToPath(new URL('../../bin/udsvstcp.js', import.meta.url));
/** @param {string} transport */
const script = (transport) => fileURLToPath(new URL(`./independent/${transport}.js`, import.meta.url));
const TRANSPORTS = ['tcp', 'uds', 'uds-abstract', 'ipc-json', 'ipc-advanced', 'worker'];
const AGREE = 0.10;

/**
 * @typedef {object} Figures
 * @property {number} msgs_per_s
 * @property {number} rtt_mean_us
 */
/**
 * One round of one (size, depth, X): each instrument's figures for tcp and X.
 * @typedef {{ udsvstcp?: { tcp: Figures, x: Figures }, independent?: { tcp: Figures, x: Figures } }} Round
 */

/** @type {Set<import('node:child_process').ChildProcess>} */
const children = new Set();
function killChildren() {
  for (const child of children) child.kill('SIGTERM');
}
process.on('SIGINT', () => { killChildren(); process.exit(130); });
process.on('SIGTERM', () => { killChildren(); process.exit(143); });
process.on('exit', killChildren);

/**
 * Run a child to its end, or kill it (SIGTERM, then SIGKILL 2 s later) after `timeoutMs`.
 * @param {string[]} argv
 * @param {number} timeoutMs
 * @returns {Promise<{ ok: boolean, stdout: string, why: string }>}
 */
function run(argv, timeoutMs) {
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (t) => { stdout += t; });
    child.stderr?.setEncoding('utf8').on('data', (t) => { stderr += t; });
    /** @type {NodeJS.Timeout | undefined} */
    let hard;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      hard = setTimeout(() => child.kill('SIGKILL'), 2000);
    }, timeoutMs);
    const end = (/** @type {string} */ why) => {
      clearTimeout(timer);
      clearTimeout(hard);
      children.delete(child);
      resolve({ ok: why === '', stdout, why });
    };
    child.on('error', (error) => end(error.message));
    child.on('close', (code, signal) => {
      const last = stderr.trim().split('\n').pop() ?? '';
      end(timedOut ? `timed out after ${timeoutMs} ms` : code === 0 ? '' : `exit ${signal ?? code}: ${last}`);
    });
  });
}

/** @param {string} stdout */
const jsonLines = (stdout) => stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));

/** @param {number[]} values */
function median(values) {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** @param {number} v @param {number} [digits] */
const fmt = (v, digits = 3) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
/** @param {number} v */
const rate = (v) => (Number.isFinite(v) ? `${(v / 1000).toFixed(1)}k` : 'n/a');
/** @param {number} bytes */
const sizeLabel = (bytes) => (bytes >= 1 << 20 && bytes % (1 << 20) === 0 ? `${bytes >> 20} MiB` : bytes >= 1024 && bytes % 1024 === 0 ? `${bytes >> 10} KiB` : `${bytes} B`);

/**
 * @param {string} flag
 * @param {string} text
 * @returns {never}
 */
function usage(flag, text) {
  process.stderr.write(`independent bench: ${flag} ${text}\n`);
  process.exit(2);
}

async function main() {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '2s' },
      warmup: { type: 'string', default: '0.5s' },
      sizes: { type: 'string', default: '1KiB' },
      depths: { type: 'string', default: '1,16' },
      transports: { type: 'string', default: TRANSPORTS.join(',') },
      pin: { type: 'string', default: 'split' },
    },
  });
  const rounds = /^\d+$/.test(values.rounds) ? Number(values.rounds) : NaN;
  if (!(rounds >= 1 && rounds <= 100)) usage('--rounds', `must be a whole number from 1 to 100; got ${values.rounds}`);
  const durationMs = parseMs(values.duration);
  const warmupMs = parseMs(values.warmup);
  if (!(durationMs > 0 && durationMs <= 600_000)) usage('--duration', `must be a time from 1ms to 10m, e.g. 2s; got ${values.duration}`);
  if (!(warmupMs >= 0 && warmupMs <= 600_000)) usage('--warmup', `must be a time up to 10m, e.g. 500ms; got ${values.warmup}`);
  const sizes = values.sizes.split(',').map(parseBytes);
  if (!sizes.every((s) => s >= 1 && s <= 64 << 20 && (s & (s - 1)) === 0)) usage('--sizes', `must be powers of two from 1 B to 64 MiB, e.g. 64,1KiB; got ${values.sizes}`);
  const depths = values.depths.split(',').map((d) => (/^\d+$/.test(d) ? Number(d) : NaN));
  if (!depths.every((d) => d >= 1 && d <= 65536)) usage('--depths', `must be whole numbers from 1 to 65536; got ${values.depths}`);
  if (!sizes.every((s) => depths.every((d) => s * d <= 256 << 20))) usage('--sizes', 'size × depth must be at most 256 MiB');
  const transports = values.transports.split(',');
  if (!transports.every((t) => TRANSPORTS.includes(t))) usage('--transports', `must be among ${TRANSPORTS.join(', ')}; got ${values.transports}`);
  const pin = values.pin;
  if (!['none', 'split', 'same'].includes(pin)) usage('--pin', `must be none, split or same; got ${pin}`);
  if (pin !== 'none') {
    if (os.availableParallelism() < 2) usage('--pin', `${pin} needs two CPUs; use --pin none`);
    try { execFileSync('taskset', ['-V'], { stdio: 'ignore' }); } catch { usage('--pin', `${pin} needs taskset (util-linux); use --pin none`); }
  }

  // what this udsvstcp run takes, asked once
  const help = await run([process.execPath, BIN, 'run', '--help'], 30_000);
  const runHasPin = /--pin\b/.test(help.stdout);
  const runHasNoProbe = /--no-probe\b/.test(help.stdout);
  const udsvstcpPin = pin === 'none' ? 'none' : runHasPin ? pin : `none (this udsvstcp run has no --pin; unpinned)`;
  if (pin !== 'none' && !runHasPin) process.stderr.write(`independent bench: udsvstcp run --help lists no --pin: its runs are unpinned, the independent ones --pin ${pin}\n`);

  const time = [`--duration`, `${durationMs}ms`, '--warmup', `${warmupMs}ms`];
  /** @param {number} size @param {number} depth @param {string} transport */
  async function independent(size, depth, transport) {
    const r = await run([process.execPath, script(transport), '--size', String(size), '--depth', String(depth), ...time, '--pin', pin], warmupMs + durationMs + 30_000);
    const [line] = jsonLines(r.stdout);
    if (!r.ok || !line) throw new Error(`independent ${transport}: ${r.why || 'no JSON line'}`);
    return /** @type {Figures} */ (line);
  }
  /** @param {number} size @param {number} depth @param {string} x */
  async function udsvstcp(size, depth, x) {
    const list = x === 'tcp' ? 'tcp' : `tcp,${x}`;
    const r = await run([process.execPath, BIN, 'run', '--transport', list, '--size', String(size), '--depth', String(depth), ...time, '--json',
      ...(runHasNoProbe ? ['--no-probe'] : []), ...(runHasPin ? ['--pin', pin] : [])], 2 * (warmupMs + durationMs) + 60_000);
    const records = jsonLines(r.stdout);
    const find = (/** @type {string} */ t) => records.find((rec) => rec.transport === t && rec.status === 'ok');
    const tcp = find('tcp');
    const other = find(x);
    if (!r.ok || !tcp || !other) throw new Error(`udsvstcp run --transport ${list}: ${r.why || records.map((rec) => `${rec.transport} ${rec.status} ${rec.error ?? ''}`).join('; ') || 'no JSON lines'}`);
    return { tcp: /** @type {Figures} */ (tcp), x: /** @type {Figures} */ (other) };
  }

  /** @type {Map<string, Round[]>} key size|depth|X */
  const results = new Map();
  let failures = 0;
  const total = rounds * sizes.length * depths.length * transports.length;
  let step = 0;
  for (let round = 1; round <= rounds; round++) {
    for (const size of sizes) {
      for (const depth of depths) {
        for (const x of transports) {
          step++;
          process.stderr.write(`[${step}/${total}] round ${round}, ${sizeLabel(size)} × ${depth}, ${x}…\n`);
          /** @type {Round} */
          const entry = {};
          const order = round % 2 === 1 ? ['independent', 'udsvstcp'] : ['udsvstcp', 'independent'];
          for (const instrument of order) {
            try {
              if (instrument === 'udsvstcp') entry.udsvstcp = await udsvstcp(size, depth, x);
              else {
                // tcp and X under the independent instrument, their order alternating too
                const pair = round % 2 === 1 ? ['tcp', x] : [x, 'tcp'];
                /** @type {Record<string, Figures>} */
                const got = {};
                for (const t of x === 'tcp' ? ['tcp'] : pair) got[t] = await independent(size, depth, t);
                entry.independent = { tcp: got.tcp, x: got[x] };
              }
            } catch (error) {
              failures++;
              process.stderr.write(`  failed: ${/** @type {Error} */ (error).message}\n`);
            }
          }
          const key = `${size}|${depth}|${x}`;
          results.set(key, [...(results.get(key) ?? []), entry]);
        }
      }
    }
  }

  const header = ['size', 'depth', 'transport', 'msgs/s udsvstcp', 'msgs/s independent', 'udsvstcp ÷ independent', 'X/TCP udsvstcp', 'X/TCP independent', 'X/TCP agree (±10 %)', 'RTT mean µs udsvstcp', 'RTT mean µs independent', 'rounds'];
  const rows = [];
  for (const [key, entries] of results) {
    const [size, depth, x] = key.split('|');
    const u = entries.flatMap((e) => (e.udsvstcp ? [e.udsvstcp] : []));
    const i = entries.flatMap((e) => (e.independent ? [e.independent] : []));
    const both = entries.flatMap((e) => (e.udsvstcp && e.independent ? [{ u: e.udsvstcp, i: e.independent }] : []));
    const byInstrument = median(both.map((e) => e.u.x.msgs_per_s / e.i.x.msgs_per_s));
    const uRatio = median(u.map((e) => e.x.msgs_per_s / e.tcp.msgs_per_s));
    const iRatio = median(i.map((e) => e.x.msgs_per_s / e.tcp.msgs_per_s));
    const apart = uRatio / iRatio - 1;
    rows.push([sizeLabel(Number(size)), depth, x,
      rate(median(u.map((e) => e.x.msgs_per_s))), rate(median(i.map((e) => e.x.msgs_per_s))), fmt(byInstrument),
      fmt(uRatio), fmt(iRatio), Number.isFinite(apart) ? `${Math.abs(apart) <= AGREE ? 'yes' : 'no'} (${apart >= 0 ? '+' : ''}${(apart * 100).toFixed(1)} %)` : 'n/a',
      fmt(median(u.map((e) => e.x.rtt_mean_us)), 1), fmt(median(i.map((e) => e.x.rtt_mean_us)), 1), `${both.length} of ${entries.length}`]);
  }
  const cpus = os.cpus();
  const lines = [
    `node ${process.version} · ${os.availableParallelism()} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}) · ${os.type()} ${os.release()} ${os.arch()}`,
    `${rounds} round${rounds > 1 ? 's' : ''}, ${durationMs} ms measured after ${warmupMs} ms warm-up per transport; pin: independent ${pin}, udsvstcp ${udsvstcpPin}`,
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map((_, k) => (k < 3 ? '---' : '---:')).join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ];
  if (failures) lines.push('', `${failures} run${failures > 1 ? 's' : ''} failed (see stderr); their rounds are left out.`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return failures ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then((code) => { process.exitCode ??= code; }, (error) => {
    process.stderr.write(`independent bench: ${error.message}\n`);
    process.exitCode ??= 1;
  });
}
