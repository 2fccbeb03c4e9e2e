/**
 * The redis workload's client: one ioredis connection to a target (host and port, or a socket path: ./transport.js),
 * opened before the first block and kept across blocks. A block does `ops` operations, each a SET of a fresh value to
 * the loop's own key and then a GET of it, `depth` loops at once on the one connection (so up to `depth` commands are in
 * flight, written as they are issued: no auto-pipelining). Every reply is checked: SET's OK, and GET's exact bytes
 * (getBuffer) against the value just set. An op's latency runs from its SET's issue to its GET's reply.
 *
 * A dead or silent server fails the block, never hangs it: no offline queue, no retries, no reconnection, and each
 * command times out after `timeoutMs`.
 */
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { RunError } from '../core/errors.js';
import { createPayloads } from './payload.js';
import { describeTarget, socketAddress } from './transport.js';

/**
 * @typedef {object} RedisBlock
 * @property {number} start performance.now() ms before the block's first command
 * @property {number} end at its last reply
 * @property {number} bytes value bytes written and read back
 * @property {number} verified replies checked (two per op)
 *
 * @typedef {object} RedisLoad
 * @property {(ops: number, histogram?: import('node:perf_hooks').RecordableHistogram) => Promise<RedisBlock>} block
 *   connect if not yet connected, then run `ops` operations and resolve once every reply is in and checked
 * @property {(error: Error) => void} abort fail what is in flight (the connection is dropped)
 * @property {() => Promise<void>} close
 */

/**
 * @param {import('./transport.js').Target} target
 * @param {{ size: number, depth: number, seed: number | string, timeoutMs: number, noDelay?: boolean }} options
 * @returns {RedisLoad}
 */
export function createRedisLoad(target, { size, depth, seed, timeoutMs, noDelay = true }) {
  const where = describeTarget(target);
  const payloads = createPayloads(size, `${seed}:redis`, depth);
  const client = new Redis({
    ...socketAddress(target, { noDelay }),
    lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null, autoResendUnfulfilledCommands: false,
    enableReadyCheck: false, disableClientInfo: true, connectTimeout: timeoutMs, commandTimeout: timeoutMs,
  });
  client.on('error', () => {}); // each command's own rejection says what went wrong
  /** Each loop's key: this lane's own, so the other transport's lane never writes it. */
  const keys = Array.from({ length: depth }, (_, j) => `udsvstcp:${target.transport}:${j}`);
  /** @type {Promise<void> | undefined} */
  let connecting;
  /** @type {Error | undefined} */
  let failure;
  let issued = 0;

  /** @param {unknown} error */
  const fail = (error) => {
    if (failure) return failure;
    const message = /** @type {Error} */ (error).message;
    // kept: the block's other loops stop at their next op
    failure = error instanceof RunError ? error : new RunError(`redis at ${where}: ${message}`, /timed out/i.test(message) ? 'ERR_TIMEOUT' : 'ERR_REDIS');
    return failure;
  };

  /**
   * One op on loop j: SET a fresh value, GET it back, check both replies.
   * @param {number} j
   * @param {import('node:perf_hooks').RecordableHistogram | undefined} histogram
   */
  const op = async (j, histogram) => {
    const value = payloads.packet(issued++);
    const t0 = performance.now();
    const ok = await client.set(keys[j], value);
    if (ok !== 'OK') throw new RunError(`redis at ${where}: SET answered ${JSON.stringify(ok)}, not OK`, 'ERR_VERIFY');
    const got = await client.getBuffer(keys[j]);
    histogram?.record(Math.max(1, Math.round((performance.now() - t0) * 1e6)));
    if (!got || !got.equals(value)) {
      const at = got ? [...value].findIndex((byte, i) => got[i] !== byte) : -1;
      throw new RunError(`redis at ${where}: GET ${keys[j]} returned ${got ? `${got.length} bytes differing from the ${value.length} SET stored${at >= 0 ? ` at byte ${at}` : ''}` : 'nil'}`, 'ERR_VERIFY');
    }
  };

  return {
    async block(ops, histogram) {
      if (failure) throw failure;
      connecting ??= client.connect().catch((error) => { throw fail(error); });
      await connecting;
      let next = 0;
      let verified = 0;
      const loop = async (/** @type {number} */ j) => {
        while (next < ops) {
          if (failure) throw failure;
          next++;
          await op(j, histogram).catch((error) => { throw fail(error); });
          verified += 2;
        }
      };
      const start = performance.now();
      try {
        await Promise.all(Array.from({ length: Math.min(depth, ops) }, (_, j) => loop(j)));
      } catch (error) {
        throw fail(error);
      }
      return { start, end: performance.now(), bytes: 2 * ops * size, verified };
    },
    abort(error) {
      failure ??= error;
      client.disconnect();
    },
    async close() {
      // QUIT where the connection is up (redis-server closes it then), and the socket dropped whatever the answer
      if (client.status === 'ready') await client.quit().catch(() => {});
      client.disconnect();
    },
  };
}
