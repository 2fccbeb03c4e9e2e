/**
 * The wake-up probe: what waking an idle CPU costs a round trip on this
 * machine. Two Node processes ping-pong 1-byte messages over a Unix socket
 * (lib/machine/wakeup-peer.js), with the ends pinned by taskset once to one
 * CPU (the receiver is always runnable on a CPU that is not idle: no
 * wake-up of an idle CPU) and once to two CPUs (each message wakes the
 * other, idle, CPU), in alternating blocks (same, cross, cross, same, …)
 * so that drift hits both alike. The difference of the medians estimates
 * the wake-up cost of one round trip. Where `chrt` is present, a third,
 * busy-ish configuration runs the cross-CPU ping-pong with a SCHED_IDLE
 * spinner on each CPU, so that neither CPU goes idle: it separates waking
 * an idle CPU from moving a message between two CPUs.
 *
 * Never throws: where it cannot run (no taskset, one CPU, a peer that fails,
 * a signal), the result is null with a note saying why.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild } from '../core/child.js';
import { findProgram } from '../core/programs.js';

const PEER = fileURLToPath(new URL('./wakeup-peer.js', import.meta.url));
/** The probe's processes say they are ready within this long (the whole probe's limit bounds it too). */
const LIMIT_MS = 10_000;
/** How long the busy baseline's spinners may take to start. */
const SPINNER_START_MS = 1000;

/**
 * @typedef {object} RoundTrips the round trips of one configuration, all its blocks together
 * @property {string} cpus where the ends ran
 * @property {number} round_trips
 * @property {number} mean_us
 * @property {number} p10_us
 * @property {number} p50_us
 * @property {number} p90_us
 *
 * @typedef {object} Wakeup meta.json's machine.wakeup
 * @property {string} method
 * @property {number} block_ms
 * @property {number} blocks per configuration
 * @property {RoundTrips} same_cpu
 * @property {RoundTrips} cross_cpu
 * @property {RoundTrips | null} cross_cpu_busy
 * @property {string | null} busy_note why there is no busy configuration
 * @property {number} wake_cost_us cross_cpu.p50_us − same_cpu.p50_us: what waking idle CPUs adds to a round trip
 * @property {number | null} idle_exit_cost_us cross_cpu.p50_us − cross_cpu_busy.p50_us
 * @property {number} elapsed_ms the probe's whole time, process starts included
 * @property {number} load_1m the machine's 1-minute load average as the probe began
 * @property {number} cpu_count CPUs this process may use
 *
 * @typedef {object} ProbeResult
 * @property {Wakeup | null} wakeup
 * @property {string | null} note why there is no probe, or what it lacks
 */

/** @param {number} x */
const round2 = (x) => Math.round(x * 100) / 100;

/**
 * @param {number[]} samples round trips in µs
 * @param {string} cpus
 * @returns {RoundTrips}
 */
export function describeRoundTrips(samples, cpus) {
  const sorted = Float64Array.from(samples).sort();
  const rank = (/** @type {number} */ p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
  return {
    cpus,
    round_trips: sorted.length,
    mean_us: round2(sorted.reduce((a, b) => a + b, 0) / sorted.length),
    p10_us: round2(rank(0.1)),
    p50_us: round2(rank(0.5)),
    p90_us: round2(rank(0.9)),
  };
}

/**
 * A process of the probe, in a process group of its own (a terminal's Ctrl-C
 * reaches the sweep, which ends the probe itself), stopped with its group.
 * A Node peer answers on its IPC channel; any process may say "ready" on stdout.
 * @param {string[]} argv
 * @param {string} what for messages
 */
function startProcess(argv, what) {
  const child = startChild({ what, argv, stdout: true });
  return {
    pid: child.pid,
    channel: child.channel,
    /** its first message of this type */
    ready: (/** @type {string} */ type) => child.ready(type, LIMIT_MS),
    /** the first line on stdout */
    line: () => Promise.race([
      new Promise((resolve) => {
        let text = '';
        child.process.stdout?.setEncoding('utf8').on('data', function onData(t) {
          text += t;
          if (!text.includes('\n')) return;
          child.process.stdout?.off('data', onData);
          resolve(text.split('\n')[0]);
        });
      }),
      child.exited.then(({ code, signal, error }) => { throw new Error(error?.message ?? (child.stderr().trim().split('\n').pop() || `${what} exited (${signal ?? `code ${code}`})`)); }),
    ]),
    /** SIGKILL to its process group, and wait until it is gone */
    stop: () => child.stop({ signal: 'SIGKILL' }),
  };
}

/**
 * Move every thread of a running process to one CPU.
 * @param {string} taskset
 * @param {number} pid
 * @param {string} cpu
 */
function pin(taskset, pid, cpu) {
  return new Promise((resolve, reject) => {
    execFile(taskset, ['-a', '-p', '-c', cpu, String(pid)], { timeout: 5000 }, (error) => (error ? reject(new Error(`taskset -p: ${error.message.split('\n')[0]}`)) : resolve(undefined)));
  });
}

/**
 * @param {object} [options]
 * @param {number} [options.blockMs] length of one block (default 50)
 * @param {number} [options.blocks] blocks per configuration (default 2: same, cross, cross, same)
 * @param {boolean} [options.busy] also measure cross-CPU with both CPUs kept busy (needs chrt and timeout)
 * @param {AbortSignal} [options.signal] ends the probe early (the result is then null)
 * @param {number} [options.limitMs] the whole probe, process starts included (default 10 s)
 * @returns {Promise<ProbeResult>}
 */
export async function probeWakeup({ blockMs = 50, blocks = 2, busy = true, signal, limitMs = 10_000 } = {}) {
  const taskset = findProgram('taskset');
  if (!taskset) return { wakeup: null, note: 'taskset not found (Linux util-linux): no pinning, so no wake-up probe' };
  if (os.availableParallelism() < 2) return { wakeup: null, note: 'one CPU available: no cross-CPU round trip to compare with, so no wake-up probe' };
  const chrt = busy ? findProgram('chrt') : undefined;
  const timeout = busy ? findProgram('timeout') : undefined;
  const busyNote = !busy ? 'not measured (turned off)' : !chrt ? 'chrt not found (Linux util-linux): no busy baseline' : !timeout ? 'timeout not found (coreutils): no busy baseline' : null;

  const started = performance.now();
  const [load] = os.loadavg();
  const dir = await mkdtemp(join(os.tmpdir(), 'udsvstcp-probe-'));
  const path = join(dir, 'p.sock');
  /** @type {ReturnType<typeof startProcess>[]} */
  const processes = [];
  let closed = false;
  const start = (/** @type {string[]} */ argv, /** @type {string} */ what) => {
    if (closed) throw new Error('interrupted'); // the probe has ended: start nothing more
    const p = startProcess(argv, what);
    processes.push(p);
    return p;
  };
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  /** @type {() => void} */
  let onAbort = () => {};
  const stopped = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not finish within ${limitMs} ms`)), limitMs);
    onAbort = () => reject(new Error('interrupted'));
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  stopped.catch(() => undefined);

  try {
    const result = await Promise.race([stopped, (async () => {
      // two Node processes: the echo end stays on cpu 0, the ping end moves between cpu 0 and cpu 1
      const echo = start([taskset, '-c', '0', process.execPath, PEER, 'echo', path], 'the echo end');
      const ping = start([taskset, '-c', '0', process.execPath, PEER, 'ping', path], 'the ping end');
      await Promise.all([echo.ready('ready'), ping.ready('ready')]); // both start at once
      await ping.channel.request('connect');
      let on = '0';
      /** @type {{ same: number[], cross: number[], busy: number[] }} */
      const samples = { same: [], cross: [], busy: [] };
      const block = async (/** @type {'0' | '1'} */ cpu, /** @type {number[]} */ into) => {
        if (on !== cpu) await pin(taskset, ping.pid, cpu);
        on = cpu;
        const rtt = await ping.channel.request('run', { ms: blockMs });
        for (const x of rtt) into.push(x);
      };
      for (let b = 0; b < blocks; b++) {
        // same cross | cross same | same cross …: each configuration as often first as second
        if (b % 2 === 0) { await block('0', samples.same); await block('1', samples.cross); } else { await block('1', samples.cross); await block('0', samples.same); }
      }
      /** @type {string | null} */
      let busyMissing = null;
      if (chrt && timeout) {
        // a SCHED_IDLE spinner on each CPU: neither goes idle, and either yields at once to the probe's ends
        const spinSeconds = Math.ceil((blocks * blockMs + SPINNER_START_MS + 1000) / 1000);
        const spinners = ['0', '1'].map((cpu) => start([taskset, '-c', cpu, chrt, '-i', '0', timeout, '-s', 'KILL', String(spinSeconds), 'sh', '-c', 'echo ready; while :; do :; done'], 'a spinner'));
        /** @type {NodeJS.Timeout | undefined} */
        let wait;
        // a SCHED_IDLE process runs only on a CPU with nothing else to do: on a busy machine it may never start
        const outcome = await Promise.race([
          Promise.all(spinners.map((s) => s.line())).then(() => null, (error) => `a spinner failed (${error.message}): no busy baseline`),
          new Promise((resolve) => { wait = setTimeout(resolve, SPINNER_START_MS, `the SCHED_IDLE spinners did not start within ${SPINNER_START_MS} ms (the CPUs were never idle): no busy baseline`); }),
        ]);
        clearTimeout(wait);
        if (outcome === null) for (let b = 0; b < blocks; b++) await block('1', samples.busy);
        else busyMissing = /** @type {string} */ (outcome);
        await Promise.all(spinners.map((s) => s.stop()));
      }
      const sameCpu = describeRoundTrips(samples.same, 'ping cpu 0, echo cpu 0');
      const crossCpu = describeRoundTrips(samples.cross, 'ping cpu 1, echo cpu 0');
      const crossBusy = samples.busy.length ? describeRoundTrips(samples.busy, 'ping cpu 1, echo cpu 0, a SCHED_IDLE spinner on each') : null;
      /** @type {Wakeup} */
      const wakeup = {
        method: `1-byte ping-pong between two Node processes over a Unix socket, ${blocks} blocks of ${blockMs} ms per configuration in alternating order (the ping end moved between CPUs by taskset -p); wake_cost_us = cross-CPU − same-CPU median round trip`,
        block_ms: blockMs,
        blocks,
        same_cpu: sameCpu,
        cross_cpu: crossCpu,
        cross_cpu_busy: crossBusy,
        busy_note: busyNote ?? busyMissing,
        wake_cost_us: round2(crossCpu.p50_us - sameCpu.p50_us),
        idle_exit_cost_us: crossBusy ? round2(crossCpu.p50_us - crossBusy.p50_us) : null,
        elapsed_ms: 0,
        load_1m: round2(load),
        cpu_count: os.availableParallelism(),
      };
      return wakeup;
    })()]);
    result.elapsed_ms = Math.round(performance.now() - started);
    return { wakeup: result, note: busy ? result.busy_note : null };
  } catch (error) {
    return { wakeup: null, note: `wake-up probe failed: ${/** @type {Error} */ (error).message}` };
  } finally {
    closed = true;
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    await Promise.all(processes.map((p) => p.stop()));
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
