/**
 * meta.json's `machine` for one session: the machine facts (lib/core/machine.js), then, unless turned off, the wake-up
 * probe (docs/results.md#metajson), one after the other so the probe shares the machine with nothing of ours. The ping
 * end (./wakeup-peer.js) moves between the echo end's CPU and another in alternating blocks, so drift hits both alike;
 * a busy baseline separates waking an idle CPU from moving a message between CPUs. Never throws: where it cannot run
 * (no taskset, one CPU, a failed peer, a signal), the result is null with a note saying why.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';
import { startChild } from '../core/child.js';
import { collectMachine } from '../core/machine.js';
import { findProgram } from '../core/programs.js';

const PEER = fileURLToPath(new URL('./wakeup-peer.js', import.meta.url));
/** The whole probe, process starts included, ends within this long. */
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
function describeRoundTrips(samples, cpus) {
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
 * Resolves once a process (a spinner) has printed on stdout; rejects with its last stderr line if it ends first.
 * @param {import('../core/child.js').Child} child
 * @param {string} what
 */
function spoke(child, what) {
  return Promise.race([
    once(/** @type {import('node:stream').Readable} */ (child.process.stdout), 'data'),
    child.exited.then(({ code, signal, error }) => { throw new Error(error?.message ?? (child.stderr().trim().split('\n').pop() || `${what} exited (${signal ?? `code ${code}`})`)); }),
  ]);
}

/** Move every thread of a running process to one CPU. @param {string} taskset @param {number} pid @param {string} cpu */
const pin = (taskset, pid, cpu) => promisify(execFile)(taskset, ['-a', '-p', '-c', cpu, String(pid)], { timeout: 5000 })
  .catch((error) => { throw new Error(`taskset -p: ${error.message.split('\n')[0]}`); });

/**
 * A sweep's probe is 6 blocks of 50 ms (same, cross, cross, same, and two cross-CPU with both CPUs busy):
 * about 0.3 s of round trips and 0.5 s in all on a quiet machine.
 * @param {object} [options]
 * @param {number} [options.blockMs] length of one block
 * @param {number} [options.blocks] blocks per configuration
 * @param {AbortSignal} [options.signal] ends the probe early (the result is then null)
 * @returns {Promise<ProbeResult>}
 */
export async function probeWakeup({ blockMs = 50, blocks = 2, signal } = {}) {
  const taskset = findProgram('taskset');
  if (!taskset) return { wakeup: null, note: 'taskset not found (Linux util-linux): no pinning, so no wake-up probe' };
  if (os.availableParallelism() < 2) return { wakeup: null, note: 'one CPU available: no cross-CPU round trip to compare with, so no wake-up probe' };
  const chrt = findProgram('chrt');
  const timeout = findProgram('timeout');
  const busyNote = !chrt ? 'chrt not found (Linux util-linux): no busy baseline' : !timeout ? 'timeout not found (coreutils): no busy baseline' : null;

  const started = performance.now();
  const [load] = os.loadavg();
  const dir = await mkdtemp(join(os.tmpdir(), 'udsvstcp-probe-'));
  const path = join(dir, 'p.sock');
  /** @type {import('../core/child.js').Child[]} */
  const processes = [];
  let closed = false;
  const start = (/** @type {string[]} */ argv, /** @type {string} */ what) => {
    if (closed) throw new Error('interrupted'); // the probe has ended: start nothing more
    const child = startChild({ what, argv, stdout: true });
    processes.push(child);
    return child;
  };
  const ended = AbortSignal.any([AbortSignal.timeout(LIMIT_MS), ...(signal ? [signal] : [])]);
  const stopped = new Promise((_, reject) => {
    const stop = () => reject(new Error(signal?.aborted ? 'interrupted' : `did not finish within ${LIMIT_MS} ms`));
    if (ended.aborted) stop();
    else ended.addEventListener('abort', stop, { once: true });
  });
  stopped.catch(() => undefined);

  try {
    const result = await Promise.race([stopped, (async () => {
      // two Node processes: the echo end stays on cpu 0, the ping end moves between cpu 0 and cpu 1
      const echo = start([taskset, '-c', '0', process.execPath, PEER, 'echo', path], 'the echo end');
      const ping = start([taskset, '-c', '0', process.execPath, PEER, 'ping', path], 'the ping end');
      await Promise.all([echo.ready('ready', LIMIT_MS), ping.ready('ready', LIMIT_MS)]); // both start at once
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
          Promise.all(spinners.map((s) => spoke(s, 'a spinner'))).then(() => null, (error) => `a spinner failed (${error.message}): no busy baseline`),
          new Promise((resolve) => { wait = setTimeout(resolve, SPINNER_START_MS, `the SCHED_IDLE spinners did not start within ${SPINNER_START_MS} ms (the CPUs were never idle): no busy baseline`); }),
        ]);
        clearTimeout(wait);
        if (outcome === null) for (let b = 0; b < blocks; b++) await block('1', samples.busy);
        else busyMissing = /** @type {string} */ (outcome);
        await Promise.all(spinners.map((s) => s.stop({ signal: 'SIGKILL' })));
      }
      const sameCpu = describeRoundTrips(samples.same, 'ping cpu 0, echo cpu 0');
      const crossCpu = describeRoundTrips(samples.cross, 'ping cpu 1, echo cpu 0');
      const crossBusy = samples.busy.length ? describeRoundTrips(samples.busy, 'ping cpu 1, echo cpu 0, a SCHED_IDLE spinner on each') : null;
      return /** @type {Wakeup} */ ({
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
      });
    })()]);
    result.elapsed_ms = Math.round(performance.now() - started);
    return { wakeup: result, note: result.busy_note };
  } catch (error) {
    return { wakeup: null, note: `wake-up probe failed: ${/** @type {Error} */ (error).message}` };
  } finally {
    closed = true;
    await Promise.all(processes.map((p) => p.stop({ signal: 'SIGKILL' })));
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * @param {{ probe: boolean, test?: boolean, signal?: AbortSignal }} options
 *   probe: run the wake-up probe (false: `wakeup` is null and `wakeup_note` says it was turned off); test: blocks of 10 ms
 */
export async function collectMachineFacts({ probe, test = false, signal }) {
  const facts = await collectMachine();
  const result = probe ? await probeWakeup({ blockMs: test ? 10 : 50, signal }) : { wakeup: null, note: 'not run: --no-probe' };
  return { ...facts, wakeup: result.wakeup, wakeup_note: result.note };
}
