/**
 * The redis workload's client: `clients` ioredis connections to a target (host and port, or a socket path:
 * ./transport.js), opened before the first block and kept across blocks. A block does `ops` operations, each a SET of a
 * fresh value to the loop's own key and then a GET of it, `depth` loops at once on each connection (so up to `depth`
 * commands are in flight on each, written as they are issued: no auto-pipelining). With `batch` above 1 a loop sends
 * its next `batch` ops in one explicit pipeline() (each op its own key: n SETs each followed by its GET, 2n commands,
 * exec'd at once), so up to depth × 2 × batch commands are in flight per connection. Every reply is checked: SET's OK,
 * and GET's exact bytes (getBuffer) against the value just set. An op's latency runs from its SET's issue to its GET's
 * reply; in a pipeline, the pipeline's, from exec to its last reply.
 *
 * A dead or silent server fails the block, never hangs it: no offline queue, no retries, no reconnection, and each
 * command times out after `timeoutMs`.
 *
 * In open loop (createRedisRateLoad, the redis-rate workload) a block is a segment of ./open-driver.js: request j is a
 * GET of key j mod RATE_KEYS, sent when due on the one connection whether or not earlier replies are in; the keys are SET
 * once, before the first segment, and every reply's bytes are checked against the value SET. Replies come back in
 * order on one connection, so the driver's own record of each request's due and send times serves (arrived()). No
 * per-command timer: the driver's watchdog fails a segment that hears nothing for `timeoutMs`.
 */
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { RunError } from '../core/errors.js';
import { createOpenDriver } from './open-driver.js';
import { loopBlock } from '../workloads/common.js';
import { createPayloads } from './payload.js';
import { describeTarget, socketAddress } from './transport.js';

/**
 * @typedef {import('./blocks.js').BlockTimes & { bytes: number, verified: number }} RedisBlock from before the block's
 *   first command to its last reply; `bytes`: value bytes written and read back, `verified`: replies checked (two per op)
 *
 * @typedef {object} RedisLoad
 * @property {(ops: number, histogram?: import('node:perf_hooks').RecordableHistogram) => Promise<RedisBlock>} block
 *   connect if not yet connected, then run `ops` operations and resolve once every reply is in and checked
 * @property {(error: Error) => void} abort fail what is in flight (the connection is dropped)
 * @property {() => Promise<void>} close
 */

/**
 * Distinct values any this many consecutive ops at most: random values of 16 B and more are distinct anyway, and a
 * window of every op in flight (up to 64 × 256 × 256) would make a pool far too large to draw.
 */
const MAX_WINDOW = 256;

/**
 * @param {import('./transport.js').Target} target
 * @param {{ size: number, depth: number, clients?: number, batch?: number, seed: number | string, timeoutMs: number, noDelay?: boolean }} options
 *   clients: connections, each with `depth` loops; batch: ops per explicit pipeline of a loop (1: none)
 * @returns {RedisLoad}
 */
export function createRedisLoad(target, { size, depth, clients = 1, batch = 1, seed, timeoutMs, noDelay = true }) {
  const where = describeTarget(target);
  const loops = clients * depth;
  const payloads = createPayloads(size, `${seed}:redis`, Math.min(loops * batch, Math.max(depth, MAX_WINDOW)));
  const connections = Array.from({ length: clients }, () => connectRedis(target, { noDelay, timeoutMs, commandTimeout: timeoutMs }));
  /** Each loop's keys, one per op of its batch: this lane's own, so the other transport's lane never writes them (batch 1: `udsvstcp:tcp:<loop>`). */
  const keys = Array.from({ length: loops * batch }, (_, k) => `udsvstcp:${target.transport}:${k}`);
  /** @type {Promise<void> | undefined} */
  let connecting;
  /** @type {Error | undefined} */
  let failure;
  let issued = 0;

  // kept: the block's other loops stop at their next op
  const fail = (/** @type {unknown} */ error) => (failure ??= redisError(where, error));

  /**
   * One op on loop j (batch 1): SET a fresh value, GET it back, check both replies.
   * @param {number} j
   * @param {import('node:perf_hooks').RecordableHistogram | undefined} histogram
   */
  const op = async (j, histogram) => {
    const client = connections[j % clients];
    const value = payloads.packet(issued++);
    const t0 = performance.now();
    checkSet(where, await client.set(keys[j], value));
    const got = await client.getBuffer(keys[j]);
    histogram?.record(Math.max(1, Math.round((performance.now() - t0) * 1e6)));
    checkGet(where, keys[j], value, got);
  };

  /**
   * n ops on loop j in one explicit pipeline, each op's latency the pipeline's (see the top).
   * @param {number} j
   * @param {number} n
   * @param {import('node:perf_hooks').RecordableHistogram | undefined} histogram
   */
  const pipelined = async (j, n, histogram) => {
    const pipeline = connections[j % clients].pipeline();
    const sent = Array.from({ length: n }, (_, b) => ({ key: keys[j * batch + b], value: payloads.packet(issued++) }));
    for (const { key, value } of sent) pipeline.set(key, value).getBuffer(key);
    const t0 = performance.now();
    const replies = await pipeline.exec();
    const latency = Math.max(1, Math.round((performance.now() - t0) * 1e6));
    if (!replies || replies.length !== 2 * n) throw new RunError(`redis at ${where}: a pipeline of ${2 * n} commands came back with ${replies?.length ?? 0} replies`, 'ERR_VERIFY');
    sent.forEach(({ key, value }, b) => {
      const [[setError, ok], [getError, got]] = [replies[2 * b], replies[2 * b + 1]];
      if (setError) throw setError;
      checkSet(where, ok);
      if (getError) throw getError;
      checkGet(where, key, value, got);
    });
    if (histogram) for (let b = 0; b < n; b++) histogram.record(latency);
  };

  return {
    async block(ops, histogram) {
      if (failure) throw failure;
      connecting ??= Promise.all(connections.map((client) => client.connect())).then(() => {}, (error) => { throw fail(error); });
      await connecting;
      let verified = 0;
      const unit = (/** @type {number} */ j, /** @type {number} */ n) => (batch === 1 ? op(j, histogram) : pipelined(j, n, histogram))
        .then(() => { verified += 2 * n; }, (error) => { throw fail(error); });
      const times = await loopBlock(ops, loops, unit, () => failure, batch).catch((error) => { throw fail(error); });
      return { ...times, bytes: 2 * ops * size, verified };
    },
    abort(error) {
      failure ??= error;
      for (const client of connections) client.disconnect();
    },
    async close() {
      // QUIT where a connection is up (redis-server closes it then), and each socket dropped whatever the answer
      await Promise.all(connections.map(async (client) => {
        if (client.status === 'ready') await client.quit().catch(() => {});
        client.disconnect();
      }));
    },
  };
}

/** A client's failure as a lane's error, ERR_TIMEOUT where a command timed out. @param {string} where @param {unknown} error */
function redisError(where, error) {
  if (error instanceof RunError) return error;
  const message = /** @type {Error} */ (error).message;
  return new RunError(`redis at ${where}: ${message}`, /timed out/i.test(message) ? 'ERR_TIMEOUT' : 'ERR_REDIS');
}

/** @param {string} where @param {unknown} ok a SET's reply */
function checkSet(where, ok) {
  if (ok !== 'OK') throw new RunError(`redis at ${where}: SET answered ${JSON.stringify(ok)}, not OK`, 'ERR_VERIFY');
}

/** @param {string} where @param {string} key @param {Buffer} value @param {unknown} got a GET's reply */
function checkGet(where, key, value, got) {
  if (Buffer.isBuffer(got) && got.equals(value)) return;
  const bytes = Buffer.isBuffer(got) ? got : null;
  const at = bytes ? [...value].findIndex((byte, i) => bytes[i] !== byte) : -1;
  throw new RunError(`redis at ${where}: GET ${key} returned ${bytes ? `${bytes.length} bytes differing from the ${value.length} SET stored${at >= 0 ? ` at byte ${at}` : ''}` : 'nil'}`, 'ERR_VERIFY');
}

/**
 * An ioredis client that fails instead of waiting: no offline queue, retries or reconnection, connected on first use.
 * @param {import('./transport.js').Target} target
 * @param {{ noDelay: boolean, timeoutMs: number, commandTimeout?: number }} options commandTimeout: none, no timer per command
 */
function connectRedis(target, { noDelay, timeoutMs, commandTimeout }) {
  const client = new Redis({
    ...socketAddress(target, { noDelay }),
    lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null, autoResendUnfulfilledCommands: false,
    enableReadyCheck: false, disableClientInfo: true, connectTimeout: timeoutMs, ...(commandTimeout ? { commandTimeout } : {}),
  });
  client.on('error', () => {}); // each command's own rejection says what went wrong
  return client;
}

/** The keys an open-loop lane reads in turn, each SET before its first segment. */
const RATE_KEYS = 16;

/**
 * The redis-rate workload's client: GETs offered on an open-loop schedule over one connection (see the top).
 * @param {import('./transport.js').Target} target
 * @param {{ size: number, seed: number | string, timeoutMs: number, noDelay?: boolean, open: import('./pipeline.js').OpenLoop }} options
 * @returns {RedisLoad}
 */
export function createRedisRateLoad(target, { size, seed, timeoutMs, noDelay = true, open }) {
  const where = describeTarget(target);
  const payloads = createPayloads(size, `${seed}:redis-rate`, RATE_KEYS);
  const values = Array.from({ length: RATE_KEYS }, (_, k) => payloads.packet(k));
  const keys = Array.from({ length: RATE_KEYS }, (_, k) => `udsvstcp:${target.transport}:rate:${k}`);
  const client = connectRedis(target, { noDelay, timeoutMs });
  /** @type {Promise<void> | undefined} */
  let ready;
  /** @type {Error | undefined} */
  let failure;
  let verified = 0;

  /** @param {unknown} error */
  const fail = (error) => {
    if (!failure) {
      failure = redisError(where, error);
      driver.fail(failure);
      client.disconnect();
    }
    return failure;
  };

  const driver = createOpenDriver({
    ...open,
    timeoutMs,
    what: 'redis connection',
    send: (index) => {
      const k = index % RATE_KEYS;
      client.getBuffer(keys[k]).then((got) => {
        if (failure) return;
        const now = performance.now();
        checkGet(where, keys[k], values[k], got);
        verified++;
        driver.heard(now);
        driver.arrived(now); // in order: one connection
        driver.settle(now);
      }).catch(fail);
    },
    onFail: (error) => fail(error),
  });

  return {
    async block(requests, histogram) {
      if (failure) throw failure;
      ready ??= (async () => {
        // no command timer and no driver yet: a silence here fails the lane after --timeout (its SET rejected on the disconnect)
        const silence = setTimeout(() => fail(new RunError(`redis at ${where}: no answer to the SETs before the first segment for ${timeoutMs} ms (--timeout)`, 'ERR_TIMEOUT')), timeoutMs);
        try {
          await client.connect();
          for (let k = 0; k < RATE_KEYS; k++) {
            checkSet(where, await client.set(keys[k], values[k]));
          }
        } finally {
          clearTimeout(silence);
        }
      })().catch((error) => { throw fail(error); });
      await ready;
      const before = verified;
      const segment = await driver.block(requests, histogram);
      return { ...segment, bytes: segment.sent * size, verified: verified - before };
    },
    abort: fail,
    async close() {
      if (driver.running()) fail(new RunError(`closed with ${driver.state.sent - driver.state.received} requests in flight`, 'ERR_CLOSED'));
      driver.close();
      // no command timer on this client: a silent server gets --timeout to answer QUIT, then the socket is dropped
      if (client.status === 'ready') {
        /** @type {NodeJS.Timeout | undefined} */
        let timer;
        await Promise.race([client.quit().catch(() => {}), new Promise((done) => { timer = setTimeout(done, timeoutMs); })]);
        clearTimeout(timer);
      }
      client.disconnect();
    },
  };
}
