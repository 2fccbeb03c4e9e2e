/**
 * A pipelined echo client on a message channel (lib/fixture/message-peer.js), in blocks (./block-driver.js): the twin of
 * ./pipeline.js, one message per packet. Messages keep order and boundaries, so the k-th back echoes the k-th sent:
 * each is decoded as a receiver would (its transport's codec) and every byte compared with the packet sent.
 */
import { performance } from 'node:perf_hooks';
import { RunError } from '../core/errors.js';
import { createDriver, mismatchError } from './pipeline.js';

/**
 * How packets travel on a channel: what is sent for packet i, and the bytes
 * a receiver reads out of a message (null: no packet at all).
 * @typedef {object} Codec
 * @property {(index: number) => unknown} encode
 * @property {(message: unknown) => ArrayBufferView | null} decode
 */

/**
 * @param {import('../fixture/message-peer.js').Peer} peer started, nothing sent yet
 * @param {Omit<Parameters<typeof import('./pipeline.js').createPipeline>[1], 'reader'> & { codec: Codec }} options
 *   as ./pipeline.js's, with the channel's codec
 * @returns {import('./pipeline.js').Pipeline}
 */
export function createMessagePipeline(peer, { payloads, codec, depth, timeoutMs, open }) {
  const { size } = payloads;
  const driver = createDriver({ depth, timeoutMs, open, what: 'channel', send: (index) => peer.send(codec.encode(index)) });
  const { state, fail } = driver;

  /**
   * Why an echo is not the packet sent, or undefined when it is.
   * @param {unknown} message
   * @param {number} index
   */
  const check = (message, index) => {
    const view = codec.decode(message);
    if (!view) return new RunError(`the echo of packet ${index} is no packet (${message === null ? 'null' : typeof message})`, 'ERR_VERIFY');
    const got = Buffer.from(view.buffer, view.byteOffset, view.byteLength);
    const want = payloads.packet(index);
    if (got.length !== size) return new RunError(`the echo of packet ${index} has ${got.length} bytes, not ${size}`, 'ERR_VERIFY');
    if (got.equals(want)) return undefined;
    let k = 0;
    while (k < size && got[k] === want[k]) k++;
    return mismatchError(index, k, want[k], got[k]);
  };

  peer.receive((message) => {
    if (state.failure) return;
    const now = performance.now();
    driver.heard(now);
    if (state.received >= state.sent) {
      fail(new RunError(`the echo peer sent a message that answers nothing sent (after packet ${state.received - 1})`, 'ERR_VERIFY'));
      return;
    }
    const error = check(message, state.received);
    if (error) {
      fail(error);
      return;
    }
    driver.arrived(now);
    driver.settle(now);
  });
  peer.onGone((error) => {
    if (!state.closing || state.received < state.sent) fail(new RunError(`${error.message} after ${state.received} of ${state.sent} packets sent`, /** @type {RunError} */ (error).code ?? 'ERR_CLOSED'));
  });

  return {
    block: driver.block,
    close: driver.close,
    abort: fail,
  };
}
