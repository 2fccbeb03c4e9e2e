/**
 * What both echo pipelines share, whatever carries the packets (./pipeline.js, ./message-pipeline.js): up to `depth`
 * packets in flight, each send stamped in a ring; blocks of n packets that start and end with nothing in flight, timed
 * from just before the first send to the last echo's arrival, each round trip into the block's HDR histogram; the
 * watchdog and failure of driverCore. The pipeline parses and verifies, calls `arrived` per packet back, `settle` per read.
 */
import { performance } from 'node:perf_hooks';
import { RunError } from '../core/errors.js';

/**
 * @typedef {object} DriverState
 * @property {number} sent packets sent so far
 * @property {number} received packets back, verified
 * @property {number} limit packets to send, in all, by the end of the current block
 * @property {boolean} closing close() was called
 * @property {Error | undefined} failure what ended the pipeline
 */

/**
 * What both drivers (this and ./open-driver.js) share: their counts; a watchdog that every quarter of `timeoutMs` (10
 * to 250 ms) calls `onStall` when packets are in flight and nothing was heard for `timeoutMs` (unref'd: it keeps
 * nothing alive); one failure that ends it all, heard by `onFail` before `end` rejects the block under way.
 * @param {{ timeoutMs: number, clock: () => number, onStall: (now: number) => void, onFail: (error: Error) => void, end: (error: Error) => void }} options
 */
export function driverCore({ timeoutMs, clock, onStall, onFail, end }) {
  /** @type {DriverState} */
  const state = { sent: 0, received: 0, limit: 0, closing: false, failure: undefined };
  let lastProgress = clock();
  const watchdog = setInterval(() => {
    const now = clock();
    if (state.sent > state.received && now - lastProgress > timeoutMs) onStall(now);
  }, Math.max(10, Math.min(250, timeoutMs / 4)));
  watchdog.unref();
  return {
    state,
    /** @param {Error} error */
    fail(error) {
      if (state.failure) return;
      state.failure = error;
      state.limit = state.sent;
      clearInterval(watchdog);
      onFail(error);
      end(error);
    },
    /** Something arrived at `now`: the watchdog's clock restarts. @param {number} now */
    heard(now) {
      lastProgress = now;
    },
    close() {
      state.closing = true;
      clearInterval(watchdog);
    },
  };
}

/**
 * @param {object} options
 * @param {number} options.depth packets in flight, 1 = ping-pong
 * @param {number} options.timeoutMs fail when packets are in flight and nothing arrives for this long
 * @param {(index: number) => void} options.send send packet `index`
 * @param {(error: Error) => void} [options.onFail] on the first failure, before the block under way is rejected
 * @param {string} options.what what the packets travel on, for messages: 'connection', 'channel'
 */
export function createBlockDriver({ depth, timeoutMs, send, onFail = () => {}, what }) {
  const sendStamps = new Float64Array(depth);
  /** @type {import('node:perf_hooks').RecordableHistogram | undefined} */
  let histogram;
  /** @type {{ first: number, start: number, resolve: (t: import('./pipeline.js').BlockTimes) => void, reject: (e: Error) => void } | undefined} */
  let current;
  const core = driverCore({
    timeoutMs, clock: () => performance.now(), onFail,
    onStall: () => core.fail(new RunError(`no echo for ${timeoutMs} ms (--timeout) with ${state.sent - state.received} packets in flight after ${state.received} complete`, 'ERR_TIMEOUT')),
    end: (error) => {
      current?.reject(error);
      current = undefined;
    },
  });
  const { state } = core;

  const refill = () => {
    while (state.sent < state.limit && state.sent - state.received < depth) {
      const index = state.sent++;
      sendStamps[index % depth] = performance.now();
      send(index);
    }
  };

  return {
    ...core,
    /** The next packet is back, whole and verified, at `now`. @param {number} now */
    arrived(now) {
      histogram?.record(Math.max(1, Math.round((now - sendStamps[state.received % depth]) * 1e6)));
      state.received++;
    },
    /** A read is done: send what the block still needs, and end it if its last packet is back. @param {number} now */
    settle(now) {
      refill();
      if (current && state.received === state.limit) {
        const { first, start, resolve } = current;
        current = undefined;
        resolve({ packets: state.received - first, start, end: now });
      }
    },
    /**
     * @param {number} packets
     * @param {import('node:perf_hooks').RecordableHistogram} [recordTo]
     * @returns {Promise<import('./pipeline.js').BlockTimes>}
     */
    block(packets, recordTo) {
      if (state.failure) return Promise.reject(state.failure);
      if (current) return Promise.reject(new RunError(`a block is already running on this ${what}`, 'ERR_INTERNAL'));
      if (!(packets >= 1)) return Promise.reject(new RunError(`a block needs at least one packet; got ${packets}`, 'ERR_INTERNAL'));
      histogram = recordTo;
      return new Promise((resolve, reject) => {
        current = { first: state.received, start: performance.now(), resolve, reject };
        core.heard(current.start);
        state.limit = state.sent + packets;
        refill();
      });
    },
  };
}
