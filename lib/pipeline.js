/**
 * A pipelined echo client on one connected socket.
 *
 * Up to `depth` packets are in flight. Echoes are framed by byte count, never
 * by 'data' events (reads split and coalesce), and every echoed byte is
 * compared with the bytes sent. Each send is stamped with performance.now()
 * in a ring indexed by packet number; a packet is complete when its last byte
 * is back, and its round-trip time is that arrival time minus its send stamp.
 * A completed packet is replaced at once from the data handler, so the pipe
 * stays full whatever the consumer of completions (tinybench) is doing; each
 * packet's RTT and arrival time are logged for the consumer to read.
 */
import { performance } from 'node:perf_hooks';
import { RunError } from './errors.js';

/**
 * Growable per-packet record of RTT and arrival time, in milliseconds.
 */
class PacketLog {
  /** @param {number} capacity */
  constructor(capacity) {
    this.rtt = new Float64Array(capacity);
    this.arrival = new Float64Array(capacity);
  }

  /**
   * @param {number} index
   * @param {number} rtt
   * @param {number} arrival
   */
  set(index, rtt, arrival) {
    if (index >= this.rtt.length) {
      const grow = (/** @type {Float64Array} */ old) => {
        const next = new Float64Array(old.length * 2);
        next.set(old);
        return next;
      };
      this.rtt = grow(this.rtt);
      this.arrival = grow(this.arrival);
    }
    this.rtt[index] = rtt;
    this.arrival[index] = arrival;
  }
}

/**
 * @typedef {object} Pipeline
 * @property {() => void} start send the first packets
 * @property {(count: number) => true | Promise<true>} until resolve once `count` packets in all have come back verified
 * @property {(index: number) => number} rtt round-trip time of packet `index`, ms
 * @property {(index: number) => number} arrival arrival time of packet `index`'s last byte (performance.now()); index -1 is the start
 * @property {(from: number, to: number) => Float64Array} rtts RTTs of packets [from, to), ms
 * @property {(limit: number) => void} setLimit total packets to send (never below those already sent)
 * @property {() => Promise<void>} finish stop sending, wait for every packet in flight to come back verified, close
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
  const { size, count, pool } = payloads;
  const poolBytes = count * size;
  const sendStamps = new Float64Array(depth);
  const log = new PacketLog(Math.min(Number.isFinite(limit) ? limit : 65536, 1 << 20) || 1);
  let startedAt = 0;
  let sent = 0;
  let received = 0;
  let rxOffset = 0;
  let lastProgress = performance.now();
  let stopped = false;
  let finishing = false;
  /** @type {Error | undefined} */
  let failure;
  /** @type {{ count: number, resolve: (done: true) => void, reject: (e: Error) => void } | undefined} */
  let waiter;

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
    waiter = undefined;
  };

  /**
   * Where the echo first differs from the pool, as packet and byte.
   * @param {Buffer} chunk
   * @param {number} pos
   * @param {number} poolPos
   * @param {number} n
   */
  const mismatch = (chunk, pos, poolPos, n) => {
    let k = 0;
    while (k < n && chunk[pos + k] === pool[poolPos + k]) k++;
    const packet = received + Math.floor((rxOffset + k) / size);
    const hex = (/** @type {number} */ b) => `0x${b.toString(16).padStart(2, '0')}`;
    return new RunError(`echo mismatch at packet ${packet} byte ${(rxOffset + k) % size}: sent ${hex(pool[poolPos + k])}, got ${hex(chunk[pos + k])}`, 'ERR_VERIFY');
  };

  /** @param {Buffer} chunk */
  const onData = (chunk) => {
    const now = performance.now();
    lastProgress = now;
    const length = chunk.length;
    let pos = 0;
    while (pos < length) {
      const inFlight = (sent - received) * size - rxOffset;
      if (inFlight === 0) {
        fail(new RunError(`server sent ${length - pos} bytes that were never sent to it (after packet ${received - 1})`, 'ERR_VERIFY'));
        return;
      }
      // the longest run of this chunk that is contiguous in the pool
      const poolPos = (received % count) * size + rxOffset;
      const n = Math.min(length - pos, poolBytes - poolPos, inFlight);
      if (chunk.compare(pool, poolPos, poolPos + n, pos, pos + n) !== 0) {
        fail(mismatch(chunk, pos, poolPos, n));
        return;
      }
      pos += n;
      rxOffset += n;
      while (rxOffset >= size) {
        log.set(received, now - sendStamps[received % depth], now);
        received++;
        rxOffset -= size;
      }
    }
    refill();
    if (waiter && received >= waiter.count) {
      const w = waiter;
      waiter = undefined;
      w.resolve(true);
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
  socket.on('error', (error) => {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    if (code === 'EPIPE' || code === 'ECONNRESET') onClose(); // the peer went away
    else fail(new RunError(`connection error: ${code ?? error.message}`, 'ERR_CONNECTION'));
  });

  return {
    start() {
      startedAt = performance.now();
      refill();
    },
    until(count) {
      if (failure) return Promise.reject(failure);
      if (received >= count) return true;
      if (count > limit) return Promise.reject(new RunError(`cannot wait for packet ${count}: only ${limit} will be sent`, 'ERR_INTERNAL'));
      return new Promise((resolve, reject) => {
        waiter = { count, resolve, reject };
      });
    },
    rtt: (index) => log.rtt[index],
    arrival: (index) => (index < 0 ? startedAt : log.arrival[index]),
    rtts: (from, to) => log.rtt.slice(from, to),
    setLimit(total) {
      limit = Math.max(total, sent);
    },
    async finish() {
      stopped = true;
      finishing = true;
      if (sent > received) await this.until(sent);
      if (failure) throw failure;
      clearInterval(watchdog);
      socket.end();
    },
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
      socket.off('error', onError);
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
    const onError = (/** @type {NodeJS.ErrnoException} */ error) => done(new RunError(`connection error before the greeting: ${error.code ?? error.message}`, 'ERR_CONNECTION'));
    const timer = setTimeout(() => done(new RunError(`no greeting within ${timeoutMs} ms`, 'ERR_TIMEOUT')), timeoutMs);
    socket.on('data', onData);
    socket.on('close', onClose);
    socket.on('error', onError);
  });
}
