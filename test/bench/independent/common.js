/**
 * Shared by the independent echo scripts in this directory: options, CPU
 * pinning, the packets, the echo loop (send, verify, time) and the report.
 * It imports only node: built-ins — nothing from udsvstcp's lib/ — so that
 * these scripts check udsvstcp instead of repeating it.
 *
 * Every script takes
 *   --size <bytes>      packet size: 64, 1k, 1KiB, 1MiB (default 1KiB)
 *   --depth <n>         packets in flight, 1 = ping-pong (default 1)
 *   --duration <time>   measured time: 2s, 500ms (default 2s; a bare number is seconds)
 *   --warmup <time>     time before measuring (default 0.5s)
 *   --pin <how>         none, split (server end CPU 0, client CPU 1), same (both CPU 0) (default none)
 *   --timeout <time>    fail when nothing is echoed for this long (default 10s)
 *   --server-corrupt    the echo end flips one byte (to show that verification catches it)
 * and prints one JSON line: { transport, size, depth, msgs_per_s, rtt_mean_us, packets }.
 * Exit 0 ok, 1 failed (e.g. verification), 2 bad options or no taskset.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

/** The CPU of each end, per --pin. */
export const CPUS = { split: { server: '0', client: '1' }, same: { server: '0', client: '0' } };

/**
 * @typedef {object} Options
 * @property {number} size bytes
 * @property {number} depth packets in flight
 * @property {number} durationMs
 * @property {number} warmupMs
 * @property {'none' | 'split' | 'same'} pin
 * @property {number} timeoutMs
 * @property {boolean} serverCorrupt
 */

/**
 * Bytes from `1024`, `1k`, `1KiB`, `64B`, `1MiB`.
 * @param {string} text
 */
export function parseBytes(text) {
  const m = /^(\d+)\s*(b|k|kb|kib|m|mb|mib)?$/i.exec(text.trim());
  if (!m) return NaN;
  const unit = (m[2] ?? 'b').toLowerCase()[0];
  return Number(m[1]) * (unit === 'k' ? 1024 : unit === 'm' ? 1024 * 1024 : 1);
}

/**
 * Milliseconds from `500ms`, `2s`, `0.5s`, `1m`; a bare number is seconds.
 * @param {string} text
 */
export function parseMs(text) {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/.exec(text.trim());
  if (!m) return NaN;
  return Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 'm' ? 60_000 : 1000);
}

/** @type {(() => void)[]} */
const cleanups = [];
let exiting = false;

/**
 * Run `fn` when this process exits, however it exits (not on SIGKILL: the
 * echo ends also quit when their parent goes away).
 * @param {() => void} fn
 */
export function onExit(fn) {
  if (cleanups.length === 0) {
    process.on('exit', () => {
      for (const cleanup of cleanups.splice(0)) {
        try { cleanup(); } catch { /* best effort */ }
      }
    });
    process.on('SIGINT', () => process.exit(130));
    process.on('SIGTERM', () => process.exit(143));
  }
  cleanups.push(fn);
}

/**
 * Say why and exit.
 * @param {string} transport
 * @param {string} message
 * @param {number} [code]
 * @returns {never}
 */
export function fail(transport, message, code = 1) {
  if (!exiting) {
    exiting = true;
    process.stderr.write(`independent ${transport}: ${message}\n`);
  }
  process.exit(code);
}

/**
 * The options, checked; exits 2 on bad ones.
 * @param {string} transport
 * @returns {Options}
 */
export function readOptions(transport) {
  /** @type {Record<string, string | boolean | undefined>} */
  let values = {};
  try {
    ({ values } = parseArgs({
      options: {
        size: { type: 'string', default: '1KiB' },
        depth: { type: 'string', default: '1' },
        duration: { type: 'string', default: '2s' },
        warmup: { type: 'string', default: '0.5s' },
        pin: { type: 'string', default: 'none' },
        timeout: { type: 'string', default: '10s' },
        'server-corrupt': { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    fail(transport, /** @type {Error} */ (error).message, 2);
  }
  const options = {
    size: parseBytes(String(values.size)),
    depth: /^\d+$/.test(String(values.depth)) ? Number(values.depth) : NaN,
    durationMs: parseMs(String(values.duration)),
    warmupMs: parseMs(String(values.warmup)),
    pin: /** @type {Options['pin']} */ (values.pin),
    timeoutMs: parseMs(String(values.timeout)),
    serverCorrupt: values['server-corrupt'] === true,
  };
  if (!(options.size >= 1 && options.size <= 64 * 1024 * 1024)) fail(transport, `--size must be 1 B to 64 MiB; got ${values.size}`, 2);
  if (!(options.depth >= 1 && options.depth <= 65536)) fail(transport, `--depth must be a whole number from 1 to 65536; got ${values.depth}`, 2);
  if (options.size * options.depth > 256 * 1024 * 1024) fail(transport, '--size × --depth must be at most 256 MiB', 2);
  if (!(options.durationMs > 0 && options.durationMs <= 600_000)) fail(transport, `--duration must be more than 0 and at most 10m; got ${values.duration}`, 2);
  if (!(options.warmupMs >= 0 && options.warmupMs <= 600_000)) fail(transport, `--warmup must be 0 to 10m; got ${values.warmup}`, 2);
  if (!(options.timeoutMs > 0)) fail(transport, `--timeout must be a time such as 10s; got ${values.timeout}`, 2);
  if (!['none', 'split', 'same'].includes(options.pin)) fail(transport, `--pin must be none, split or same; got ${values.pin}`, 2);
  return options;
}

/**
 * The command prefix that puts the server end on its CPU: [] for --pin none.
 * @param {Options['pin']} pin
 */
export function serverPrefix(pin) {
  return pin === 'none' ? [] : ['taskset', '-c', CPUS[pin].server];
}

/**
 * Put every thread of this process (the client) on the client's CPU; threads
 * started later inherit it.
 * @param {string} transport
 * @param {Options['pin']} pin
 */
export function pinClient(transport, pin) {
  if (pin === 'none') return;
  pinTask(transport, ['-a', '-p', '-c', CPUS[pin].client, String(process.pid)]);
}

/**
 * @param {string} transport
 * @param {string[]} args taskset's arguments
 */
export function pinTask(transport, args) {
  try {
    execFileSync('taskset', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    fail(transport, `taskset ${args.join(' ')} failed (--pin needs taskset from util-linux): ${/** @type {Error} */ (error).message.split('\n')[0]}`, 2);
  }
}

/**
 * @typedef {object} Loop
 * @property {() => void} start send the first `depth` packets
 * @property {(bytes: Buffer) => void} verifyBytes a stream's echoed bytes, any chunking
 * @property {(packet: Uint8Array) => void} verifyPacket one echoed message, a whole packet
 */

/**
 * The echo loop. Keeps `depth` packets in flight; each is random bytes with
 * its sequence number in the first 4, so packets in flight differ. An echo
 * comes back in order, so every byte that arrives is compared with the next
 * expected byte of the oldest packet in flight; when a packet's last byte
 * has matched it is done, its round trip timed and the next one sent.
 * Warm-up runs for `warmupMs`; then packets done within `durationMs` count;
 * then sending stops, what is still in flight is received and verified,
 * and `finish` gets the figures.
 * @param {object} spec
 * @param {string} spec.transport
 * @param {Options} spec.options
 * @param {(packet: Buffer) => void} spec.send
 * @param {(report: { transport: string, size: number, depth: number, msgs_per_s: number, rtt_mean_us: number, packets: number }) => void} spec.finish
 * @returns {Loop}
 */
export function echoLoop({ transport, options, send, finish }) {
  const { size, depth, warmupMs, durationMs, timeoutMs } = options;
  // one random buffer per slot; slot seq % depth is reused only once its previous packet has come back
  const slots = Array.from({ length: depth }, () => randomBytes(size));
  /** @type {{ seq: number, packet: Buffer, sentAt: number }[]} */
  const inFlight = [];
  let head = 0; // index of the oldest packet in flight
  let offset = 0; // bytes of it already matched
  let seq = 0;
  let phase = /** @type {'warmup' | 'measure' | 'drain'} */ ('warmup');
  let began = 0;
  let measureFrom = 0;
  let measureTo = 0;
  let packets = 0;
  let rttSumMs = 0;
  let lastEcho = 0;
  /** @type {NodeJS.Timeout | undefined} */
  let watchdog;
  /** the client process's system calls and context switches when measuring began */
  let calls0 = processCalls();

  /** @type {Record<string, number>} */
  let perMessage = {};

  function sendNext() {
    const packet = slots[seq % depth];
    for (let i = 0; i < Math.min(4, size); i++) packet[i] = (seq >>> (8 * i)) & 0xff;
    inFlight.push({ seq, packet, sentAt: performance.now() });
    seq++;
    send(packet);
  }

  function done() {
    const { sentAt } = inFlight[head];
    head++;
    if (head > 4096 && head * 2 > inFlight.length) { inFlight.splice(0, head); head = 0; }
    const now = performance.now();
    lastEcho = now;
    if (phase === 'warmup' && now - began >= warmupMs) {
      phase = 'measure';
      measureFrom = now;
      calls0 = processCalls();
    } else if (phase === 'measure') {
      packets++;
      rttSumMs += now - sentAt;
      if (now - measureFrom >= durationMs) {
        phase = 'drain';
        measureTo = now;
        const calls = processCalls();
        perMessage = Object.fromEntries(Object.entries(calls).map(([k, v]) => [`client_${k}_per_msg`, (v - /** @type {any} */ (calls0)[k]) / packets]));
      }
    }
    if (phase !== 'drain') sendNext();
    else if (head === inFlight.length) {
      clearInterval(watchdog);
      finish({ transport, size, depth, msgs_per_s: packets / ((measureTo - measureFrom) / 1000), rtt_mean_us: (rttSumMs / packets) * 1000, packets, ...perMessage });
    }
  }

  /**
   * @param {Uint8Array} got
   * @param {number} gotAt index in `got`
   * @param {{ seq: number, packet: Buffer }} expected
   * @param {number} at index in the packet
   * @param {number} n bytes compared
   * @returns {never}
   */
  function mismatch(got, gotAt, expected, at, n) {
    let k = 0;
    while (k < n && got[gotAt + k] === expected.packet[at + k]) k++;
    return fail(transport, `verification failed: packet ${expected.seq} byte ${at + k} came back as ${got[gotAt + k]}, sent ${expected.packet[at + k]}`);
  }

  return {
    start() {
      began = performance.now();
      lastEcho = began;
      watchdog = setInterval(() => {
        if (performance.now() - lastEcho > timeoutMs) fail(transport, `nothing echoed for ${timeoutMs} ms (${inFlight.length - head} packets in flight)`);
      }, Math.min(1000, timeoutMs / 4));
      for (let i = 0; i < depth; i++) sendNext();
    },
    verifyBytes(bytes) {
      for (let i = 0; i < bytes.length;) {
        const expected = inFlight[head];
        if (!expected) fail(transport, `verification failed: ${bytes.length - i} bytes echoed that were never sent`);
        const n = Math.min(size - offset, bytes.length - i);
        if (bytes.compare(expected.packet, offset, offset + n, i, i + n) !== 0) mismatch(bytes, i, expected, offset, n);
        i += n;
        offset += n;
        if (offset === size) { offset = 0; done(); }
      }
    },
    verifyPacket(packet) {
      const expected = inFlight[head];
      if (!expected) fail(transport, 'verification failed: a packet echoed that was never sent');
      if (packet.length !== size) fail(transport, `verification failed: packet ${expected.seq} came back with ${packet.length} bytes, sent ${size}`);
      if (Buffer.compare(packet, expected.packet) !== 0) mismatch(packet, 0, expected, 0, size);
      done();
    },
  };
}

/**
 * This process's read and write system calls (Linux's /proc/self/io; -1 elsewhere) and context switches, so that a
 * report says how its messages moved (compare udsvstcp's client_*_per_msg columns).
 * @returns {{ reads: number, writes: number, vcsw: number, ivcsw: number }}
 */
function processCalls() {
  const usage = process.resourceUsage();
  let reads = -1;
  let writes = -1;
  try {
    const io = readFileSync('/proc/self/io', 'latin1');
    reads = Number(/syscr: (\d+)/.exec(io)?.[1] ?? -1);
    writes = Number(/syscw: (\d+)/.exec(io)?.[1] ?? -1);
  } catch {
    // not Linux: no call counts
  }
  return { reads, writes, vcsw: usage.voluntaryContextSwitches, ivcsw: usage.involuntaryContextSwitches };
}

/**
 * Print the report and exit 0 (the exit handlers stop the echo end).
 * @param {object} report
 */
export function report(report) {
  process.stdout.write(`${JSON.stringify(report)}\n`);
  exiting = true;
  process.exit(0);
}
