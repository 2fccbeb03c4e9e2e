/**
 * The open-loop twin of ./block-driver.js: packets leave on an absolute schedule from a segment's start, t0 + offset(j),
 * never re-anchored to "now" and never waiting for echoes, each timed from when it was due, so a stall delays every
 * packet due during it and none goes unrecorded (docs/openloop.md#what-is-timed). A pass of the pacer sends every
 * packet due, then waits: by setImmediate (a busy client CPU) when the next is due within NAP_MS, else by a timer.
 * A packet due while `cap` are in flight is dropped (it takes no packet index); a segment ends when every packet sent
 * is back, or fails after `timeoutMs` of silence, its unanswered packets recorded as lower bounds
 * (docs/openloop.md#segments-pairing-and-drops). The pipelines parse, verify and call arrived/settle as for block-driver;
 * a sender whose answers come back out of order (HTTP over several connections) keeps each request's times, passes
 * them to complete() instead, and lists the unanswered ones' due times.
 */
import { createHistogram, performance } from 'node:perf_hooks';
import { RunError } from '../core/errors.js';
import { createRandom } from '../core/random.js';
import { driverCore } from './block-driver.js';

/** A pass that finds the next packet due within this many ms spins (setImmediate) instead of sleeping on a timer. */
const NAP_MS = 2;
/** A timer wakes the pacer this long before the packet is due (timers are late, never early, by up to about a millisecond). */
const WAKE_EARLY_MS = 1;

/** @typedef {'constant' | 'poisson'} Arrivals */

/**
 * When each packet of a segment is due, in ms after its start: j / rate (constant), or sums of exponential gaps of mean
 * 1 / rate drawn from the seed (poisson). The k-th segment at one rate and seed has the same times on every transport;
 * segments differ from each other, so their rates average to the one offered.
 * @param {{ rate: number, arrivals?: Arrivals, seed?: number | string, segment?: number }} options rate in packets per second
 * @returns {(j: number) => number}
 */
export function createSchedule({ rate, arrivals = 'constant', seed = 1, segment = 0 }) {
  const gapMs = 1000 / rate;
  if (arrivals === 'constant') return (j) => j * gapMs;
  const random = createRandom(seed, `arrivals/${rate}/${segment}`);
  /** @type {number[]} */
  const offsets = [0];
  return (j) => {
    while (offsets.length <= j) offsets.push(offsets[offsets.length - 1] - Math.log(1 - random()) * gapMs);
    return offsets[j];
  };
}

/**
 * @typedef {object} SegmentTimes what an open-loop block reports, beyond a closed one's
 * @property {number} start t0, when its first packet was due
 * @property {number} end arrival of its last echo
 * @property {number} scheduled packets it offered
 * @property {number} sent
 * @property {number} packets sent (as a closed-loop block names them)
 * @property {number} dropped due while `cap` were in flight: not sent
 * @property {number} spanMs the schedule's length: when packet n would have been due
 * @property {number} growthMs its backlog's growth over it (growthOf): a server that cannot carry the rate answers later and later
 * @property {number} sendSpanMs from t0 to one gap after its last actual send (the schedule's length when it kept up)
 */

/** @param {number} ms */
const ns = (ms) => Math.max(1, Math.round(ms * 1e6));

/**
 * A segment's backlog growth, ms over its length: the median response time of the packets due in its second half less
 * that of its first half, over the half of the schedule between their middles. Medians of halves, so a pause of the
 * machine shorter than a quarter of the segment (the 10-20 ms pauses of the VM measured, in a 100 ms segment) delays
 * under half of one half's packets and moves neither median much; quarters' medians moved with a pause of 13 ms at
 * the end of a segment, and missed rates the server carried (docs/openloop.md#the-knee).
 * @param {import('node:perf_hooks').RecordableHistogram[]} halves
 */
const growthOf = ([first, last]) => (first.count && last.count ? (last.percentile(50) - first.percentile(50)) / 1e6 / 0.5 : 0);

/**
 * @param {object} options
 * @param {number} options.rate packets per second offered
 * @param {Arrivals} [options.arrivals]
 * @param {number | string} [options.seed] of the poisson arrival times
 * @param {number} options.cap packets in flight at most: the safety valve
 * @param {number} options.timeoutMs fail when packets are in flight and nothing arrives for this long
 * @param {(index: number, due: number) => void} options.send send packet `index`, due at `due` (ms)
 * @param {() => Iterable<number>} [options.unanswered] the due times of the packets in flight, for a
 *   sender that completes them out of order (default: this driver's own, in order)
 * @param {(error: Error) => void} [options.onFail]
 * @param {string} options.what what the packets travel on: 'connection', 'channel'
 * @param {{ service: import('node:perf_hooks').RecordableHistogram, lag: import('node:perf_hooks').RecordableHistogram }} [options.histograms]
 *   service times and schedule lags of measured blocks (the block's own histogram takes response times)
 * @param {() => number} [options.clock] ms (performance.now)
 * @param {(pass: () => void, waitMs: number) => void} [options.defer] run the next pass when the next packet is due in waitMs
 */
export function createOpenDriver({ rate, arrivals = 'constant', seed, cap, timeoutMs, send, unanswered, onFail = () => {}, what, histograms, clock = () => performance.now(), defer = deferPass }) {
  let segments = 0;
  let offset = createSchedule({ rate, arrivals, seed });
  const intended = new Float64Array(cap);
  const sentAt = new Float64Array(cap);
  /** the response times of the packets due in a segment's first half and in its second */
  const halves = [createHistogram(), createHistogram()];
  /** @type {{ t0: number, n: number, next: number, firstSent: number, dropped: number, lastSend: number, recordTo?: import('node:perf_hooks').RecordableHistogram, resolve: (t: SegmentTimes) => void, reject: (e: Error) => void } | undefined} */
  let current;

  const pass = () => {
    if (!current || state.failure) return;
    const segment = current;
    for (let budget = segment.n; segment.next < segment.n && budget > 0; budget--) {
      const due = segment.t0 + offset(segment.next);
      const now = clock();
      if (due > now) break;
      segment.next++;
      if (state.sent - state.received >= cap) {
        segment.dropped++;
        continue;
      }
      const index = state.sent++;
      intended[index % cap] = due;
      sentAt[index % cap] = now;
      segment.lastSend = now;
      if (segment.recordTo) histograms?.lag.record(ns(now - due));
      send(index, due);
    }
    if (segment.next < segment.n) defer(pass, segment.t0 + offset(segment.next) - clock());
    else finishIfDone(clock());
  };

  /** @param {number} now */
  const finishIfDone = (now) => {
    const segment = current;
    if (!segment || segment.next < segment.n || state.received < state.sent) return;
    current = undefined;
    const sent = state.sent - segment.firstSent;
    segment.resolve({
      start: segment.t0, end: Math.max(now, segment.t0), scheduled: segment.n, sent, packets: sent, dropped: segment.dropped,
      spanMs: offset(segment.n), growthMs: growthOf(halves),
      sendSpanMs: sent === 0 ? offset(segment.n) : Math.max(offset(segment.n), segment.lastSend - segment.t0 + offset(segment.n) / segment.n),
    });
  };

  const core = driverCore({
    timeoutMs, clock, onFail,
    end: (error) => {
      current?.reject(error);
      current = undefined;
    },
    onStall: (now) => {
      const inFlight = state.sent - state.received;
      // never left out: each counts with its response time so far, a lower bound
      const dues = unanswered ? unanswered() : Array.from({ length: inFlight }, (_, k) => intended[(state.received + k) % cap]);
      for (const due of dues) current?.recordTo?.record(ns(now - due));
      const error = new RunError(`no answer for ${timeoutMs} ms (--timeout) with ${inFlight} requests in flight after ${state.received} complete; they are incomplete, recorded with their response times so far`, 'ERR_TIMEOUT');
      core.fail(Object.assign(error, { incomplete: inFlight }));
    },
  });
  const { state } = core;

  /**
   * A packet is back, whole and verified, at `now`: one due at `due` and sent at `sent` (ms).
   * @param {number} now @param {number} due @param {number} sent
   */
  const complete = (now, due, sent) => {
    if (current) {
      const at = (due - current.t0) / offset(current.n);
      halves[at < 0.5 ? 0 : 1].record(ns(now - due));
    }
    if (current?.recordTo) {
      current.recordTo.record(ns(now - due));
      histograms?.service.record(ns(now - sent));
    }
    state.received++;
  };

  return {
    ...core,
    /** The next packet is back, whole and verified, at `now`. @param {number} now */
    arrived(now) {
      const slot = state.received % cap;
      complete(now, intended[slot], sentAt[slot]);
    },
    complete,
    /** A read is done: end the segment if it has sent everything and all is back. */
    settle: finishIfDone,
    /**
     * Offer `packets` packets on the schedule from now; resolve when every one sent is back.
     * @param {number} packets
     * @param {import('node:perf_hooks').RecordableHistogram} [recordTo] response times, of a measured block
     * @returns {Promise<SegmentTimes>}
     */
    block(packets, recordTo) {
      if (state.failure) return Promise.reject(state.failure);
      if (current) return Promise.reject(new RunError(`a block is already running on this ${what}`, 'ERR_INTERNAL'));
      if (!(packets >= 1)) return Promise.reject(new RunError(`a block needs at least one packet; got ${packets}`, 'ERR_INTERNAL'));
      offset = createSchedule({ rate, arrivals, seed, segment: segments++ });
      return new Promise((resolve, reject) => {
        const t0 = clock();
        for (const h of halves) h.reset();
        current = { t0, n: packets, next: 0, firstSent: state.sent, dropped: 0, lastSend: t0, recordTo, resolve, reject };
        core.heard(t0);
        pass();
      });
    },
    /** Whether a segment is under way: a sender closed then fails it, saying how many it left in flight. */
    running: () => current !== undefined,
  };
}

/**
 * The next pass: through the event loop (its I/O polled) when due within NAP_MS, else by a timer a little early.
 * @param {() => void} pass
 * @param {number} waitMs
 */
function deferPass(pass, waitMs) {
  if (waitMs > NAP_MS) setTimeout(pass, waitMs - WAKE_EARLY_MS);
  else setImmediate(pass);
}
