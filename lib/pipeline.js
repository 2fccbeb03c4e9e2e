/**
 * A pipelined echo client on one connected socket.
 *
 * Up to `depth` packets are in flight. Echoes are framed by byte count, never
 * by 'data' events (reads split and coalesce), and every echoed byte is
 * compared with the bytes sent. Each send is stamped with performance.now()
 * in a ring indexed by packet number; a packet is complete when its last byte
 * is back, and its round-trip time is that arrival time minus its send stamp.
 * A completed packet is replaced at once from the data handler, so the pipe
 * stays full whatever the consumer of completions (tinybench) is doing.
 */
import { performance } from 'node:perf_hooks';
import { RunError } from './errors.js';

/**
 * @typedef {object} Completion
 * @property {number} rtt_ms send stamp to arrival of the packet's last byte
 * @property {number} interval_ms arrival time minus the previous packet's arrival time
 */

/**
 * @typedef {object} Pipeline
 * @property {() => void} start send the first packets
 * @property {() => Completion | Promise<Completion>} take the next completion, in packet order
 * @property {(limit: number) => void} setLimit total packets to send (never below those already sent)
 * @property {() => Promise<void>} finish stop sending, wait for every packet in flight to come back verified, close
 * @property {() => { sent: number, received: number }} counts
 * @property {(error: Error) => void} abort fail the pipeline and destroy the socket
 */

/**
 * @param {import('node:net').Socket} socket connected, nothing read yet
 * @param {object} options
 * @param {import('./payload.js').Payloads} options.payloads
 * @param {number} options.depth packets in flight, 1 = ping-pong
 * @param {number} [options.limit] total packets to send
 * @param {number} [options.timeoutMs] fail when packets are in flight and nothing arrives for this long
 * @returns {Pipeline}
 */
export function createPipeline(socket, { payloads, depth, limit = Infinity, timeoutMs = 10_000 }) {
  const size = payloads.size;
  const sendStamps = new Float64Array(depth);
  let sent = 0;
  let received = 0;
  let rxOffset = 0;
  let expected = /** @type {Buffer | undefined} */ (undefined);
  let lastArrival = 0;
  let lastProgress = performance.now();
  let stopped = false;
  let finishing = false;
  /** @type {Error | undefined} */
  let failure;
  /** @type {Completion[]} */
  let queue = [];
  let head = 0;
  /** @type {{ resolve: (c: Completion) => void, reject: (e: Error) => void } | undefined} */
  let waiter;
  /** @type {{ resolve: () => void, reject: (e: Error) => void } | undefined} */
  let drainer;

  const refill = () => {
    while (!stopped && sent < limit && sent - received < depth) {
      const index = sent++;
      sendStamps[index % depth] = performance.now();
      socket.write(payloads.packet(index));
    }
  };

  /** @param {Error} error */
  const fail = (error) => {
    if (failure) return;
    failure = error;
    stopped = true;
    clearInterval(watchdog);
    socket.destroy();
    waiter?.reject(error);
    drainer?.reject(error);
    waiter = drainer = undefined;
  };

  /**
   * @param {Buffer} chunk
   * @param {number} pos
   * @param {number} n
   */
  const mismatch = (chunk, pos, n) => {
    const want = /** @type {Buffer} */ (expected);
    let k = 0;
    while (k < n && chunk[pos + k] === want[rxOffset + k]) k++;
    const hex = (/** @type {number} */ b) => `0x${b.toString(16).padStart(2, '0')}`;
    return new RunError(`echo mismatch at packet ${received} byte ${rxOffset + k}: sent ${hex(want[rxOffset + k])}, got ${hex(chunk[pos + k])}`, 'ERR_VERIFY');
  };

  /** @param {Buffer} chunk */
  const onData = (chunk) => {
    const now = performance.now();
    lastProgress = now;
    const length = chunk.length;
    let pos = 0;
    while (pos < length) {
      if (received >= sent) {
        fail(new RunError(`server sent ${length - pos} bytes that were never sent to it (after packet ${received - 1})`, 'ERR_VERIFY'));
        return;
      }
      if (rxOffset === 0) expected = payloads.packet(received);
      const n = Math.min(length - pos, size - rxOffset);
      if (chunk.compare(/** @type {Buffer} */ (expected), rxOffset, rxOffset + n, pos, pos + n) !== 0) {
        fail(mismatch(chunk, pos, n));
        return;
      }
      pos += n;
      rxOffset += n;
      if (rxOffset === size) {
        rxOffset = 0;
        const completion = { rtt_ms: now - sendStamps[received % depth], interval_ms: now - lastArrival };
        lastArrival = now;
        received++;
        if (waiter) {
          const w = waiter;
          waiter = undefined;
          w.resolve(completion);
        } else {
          queue.push(completion);
        }
      }
    }
    refill();
    if (drainer && received === sent) {
      drainer.resolve();
      drainer = undefined;
    }
  };

  const onClose = () => {
    if (!finishing || received < sent) {
      fail(new RunError(`server closed the connection after ${received} of ${sent} packets sent`, 'ERR_CLOSED'));
    }
  };

  const watchdog = setInterval(() => {
    if (sent > received && performance.now() - lastProgress > timeoutMs) {
      fail(new RunError(`no echo for ${timeoutMs} ms (--timeout) with ${sent - received} packets in flight after ${received} complete`, 'ERR_TIMEOUT'));
    }
  }, Math.max(10, Math.min(250, timeoutMs / 4)));
  watchdog.unref();

  socket.on('data', onData);
  socket.on('end', onClose);
  socket.on('close', onClose);
  socket.on('error', (error) => fail(new RunError(`connection error: ${/** @type {NodeJS.ErrnoException} */ (error).code ?? error.message}`, 'ERR_CONNECTION')));

  return {
    start() {
      lastArrival = performance.now();
      refill();
    },
    take() {
      if (head < queue.length) {
        const completion = queue[head++];
        if (head === queue.length) {
          queue = [];
          head = 0;
        }
        return completion;
      }
      if (failure) return Promise.reject(failure);
      if (received >= limit) return Promise.reject(new RunError(`no packet left to take: all ${limit} were consumed`, 'ERR_INTERNAL'));
      return new Promise((resolve, reject) => {
        waiter = { resolve, reject };
      });
    },
    setLimit(total) {
      limit = Math.max(total, sent);
    },
    async finish() {
      stopped = true;
      finishing = true;
      if (failure) throw failure;
      if (received < sent) {
        await new Promise((resolve, reject) => {
          drainer = { resolve: () => resolve(undefined), reject };
        });
      }
      clearInterval(watchdog);
      socket.end();
    },
    counts: () => ({ sent, received }),
    abort: fail,
  };
}

/**
 * Read and check a fixed greeting the server writes before echoing.
 * @param {import('node:net').Socket} socket
 * @param {string} greeting
 * @param {number} timeoutMs
 */
export function readGreeting(socket, greeting, timeoutMs) {
  const want = Buffer.from(greeting);
  return new Promise((resolve, reject) => {
    let got = Buffer.alloc(0);
    const done = (/** @type {Error | undefined} */ error) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      if (error) reject(error);
      else resolve(undefined);
    };
    const onData = (/** @type {Buffer} */ chunk) => {
      got = Buffer.concat([got, chunk]);
      if (got.length < want.length) return;
      if (got.length > want.length || !got.equals(want)) {
        done(new RunError(`expected the greeting ${JSON.stringify(greeting)}, got ${JSON.stringify(got.toString('latin1').slice(0, 64))}`, 'ERR_VERIFY'));
      } else {
        done(undefined);
      }
    };
    const onClose = () => done(new RunError('server closed the connection before its greeting', 'ERR_CLOSED'));
    const timer = setTimeout(() => done(new RunError(`no greeting within ${timeoutMs} ms`, 'ERR_TIMEOUT')), timeoutMs);
    socket.on('data', onData);
    socket.on('close', onClose);
  });
}
