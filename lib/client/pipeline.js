/**
 * A pipelined echo client on one connected socket, run in blocks (./block-driver.js). Echoes are framed by byte count,
 * never by 'data' events (reads split and coalesce), every echoed byte compared with those sent; a round trip ends at
 * the arrival of the packet's last byte.
 */
import { performance } from 'node:perf_hooks';
import { RunError } from '../core/errors.js';
import { createBlockDriver } from './block-driver.js';
import { createOpenDriver } from './open-driver.js';

/**
 * @typedef {import('./blocks.js').BlockTimes & { packets: number } & Partial<import('./open-driver.js').SegmentTimes>} BlockTimes from just before a block's
 *   first write to the arrival of its last echoed byte; an open-loop block's (a segment's) counts too
 *
 * @typedef {object} Pipeline
 * @property {(packets: number, histogram?: import('node:perf_hooks').RecordableHistogram) => Promise<BlockTimes>} block
 *   send `packets` packets and resolve when all are back verified; RTTs in ns go to `histogram`
 * @property {() => void} close end the connection (nothing may be in flight)
 * @property {(error: Error) => void} abort fail the pipeline and destroy the socket
 */

/**
 * @typedef {Omit<Parameters<typeof createOpenDriver>[0], 'timeoutMs' | 'send' | 'onFail' | 'what'>} OpenLoop
 *   the rate, arrivals, in-flight cap and histograms of an open-loop pipeline
 */

/**
 * The closed-loop driver (`depth` in flight), or the open-loop one at `open`'s rate.
 * @param {{ depth: number, timeoutMs: number, open?: OpenLoop, what: string, send: (index: number) => void, onFail?: (error: Error) => void }} options
 */
export function createDriver({ depth, open, ...common }) {
  return open ? createOpenDriver({ ...open, ...common }) : createBlockDriver({ depth, ...common });
}

/** @param {number} b */
const hex = (b) => `0x${b.toString(16).padStart(2, '0')}`;

/**
 * The error of an echo that differs from the packet sent, naming the first byte that does.
 * @param {number} packet
 * @param {number} byte its offset in the packet
 * @param {number} sent
 * @param {number} got
 */
export function mismatchError(packet, byte, sent, got) {
  return new RunError(`echo mismatch at packet ${packet} byte ${byte}: sent ${hex(sent)}, got ${hex(got)}`, 'ERR_VERIFY');
}

/**
 * @param {import('node:net').Socket} socket connected, nothing read yet
 * @param {{ reader: import('./transport.js').Reader, payloads: import('./payload.js').Payloads } & Pick<Parameters<typeof createDriver>[0], 'depth' | 'timeoutMs' | 'open'>} options
 *   reader: the socket's (it was connected with one); depth and timeoutMs as ./block-driver.js takes them, or `open`
 * @returns {Pipeline}
 */
export function createPipeline(socket, { reader, payloads, depth, timeoutMs, open }) {
  const { size, pool, contiguous } = payloads;
  let rxOffset = 0;
  const driver = createDriver({ depth, timeoutMs, open, what: 'connection', send: (index) => socket.write(payloads.packet(index)), onFail: () => socket.destroy() });
  const { state, fail } = driver;

  /**
   * Why the echo differs, naming the first byte that does.
   * @param {Buffer} chunk
   * @param {number} pos
   * @param {number} poolPos
   * @param {number} n
   */
  const mismatch = (chunk, pos, poolPos, n) => {
    let k = 0;
    while (k < n && chunk[pos + k] === pool[poolPos + k]) k++;
    return mismatchError(state.received + Math.floor((rxOffset + k) / size), (rxOffset + k) % size, pool[poolPos + k], chunk[pos + k]);
  };

  /** @param {Buffer} chunk */
  const onData = (chunk) => {
    const now = performance.now();
    driver.heard(now);
    const length = chunk.length;
    let pos = 0;
    while (pos < length) {
      const inFlight = (state.sent - state.received) * size - rxOffset;
      if (inFlight === 0) {
        fail(new RunError(`server sent ${length - pos} bytes that were never sent to it (after packet ${state.received - 1})`, 'ERR_VERIFY'));
        return;
      }
      // the longest run of this chunk that is contiguous in the pool
      const poolPos = payloads.offset(state.received) + rxOffset;
      const n = Math.min(length - pos, contiguous ? pool.length - poolPos : size - rxOffset, inFlight);
      if (chunk.compare(pool, poolPos, poolPos + n, pos, pos + n) !== 0) {
        fail(mismatch(chunk, pos, poolPos, n));
        return;
      }
      pos += n;
      rxOffset += n;
      while (rxOffset >= size) {
        driver.arrived(now);
        rxOffset -= size;
      }
    }
    driver.settle(now);
  };

  const onClose = () => {
    if (!state.closing || state.received < state.sent) {
      fail(new RunError(`server closed the connection after ${state.received} of ${state.sent} packets sent`, 'ERR_CLOSED'));
    }
  };

  reader.fn = onData;
  socket.on('end', onClose);
  socket.on('close', onClose);
  socket.on('error', (error) => {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    if (code === 'EPIPE' || code === 'ECONNRESET') onClose(); // the peer went away
    else fail(new RunError(`connection error: ${code ?? error.message}`, 'ERR_CONNECTION'));
  });

  return {
    block: driver.block,
    close() {
      driver.close();
      socket.end();
    },
    abort: fail,
  };
}

/**
 * Read and check a fixed greeting the server writes first (echo's 2014 one, connect's).
 * @param {import('node:net').Socket} socket
 * @param {string} greeting
 * @param {number} timeoutMs
 * @param {import('./transport.js').Reader} [reader] the socket's reader, when it was connected with one
 */
export function readGreeting(socket, greeting, timeoutMs, reader) {
  const want = Buffer.from(greeting);
  return new Promise((resolve, reject) => {
    let got = Buffer.alloc(0);
    const done = (/** @type {Error | undefined} */ error) => {
      clearTimeout(timer);
      if (reader) reader.fn = () => {};
      else socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onError);
      if (error) reject(error);
      else resolve(undefined);
    };
    const onData = (/** @type {Buffer} */ chunk) => {
      got = Buffer.concat([got, chunk]); // a copy: a reader's chunk is only valid during the call
      if (got.length < want.length) return;
      if (got.length > want.length || !got.equals(want)) {
        done(new RunError(`expected the greeting ${JSON.stringify(greeting)}, got ${JSON.stringify(got.toString('latin1').slice(0, 64))}`, 'ERR_VERIFY'));
      } else {
        done(undefined);
      }
    };
    const onClose = () => done(new RunError(`the server closed after ${got.length} of ${want.length} greeting bytes`, 'ERR_CLOSED'));
    // an abort's own error (the trial's limit) is passed on as it is
    const onError = (/** @type {NodeJS.ErrnoException} */ error) => done(error instanceof RunError ? error
      : new RunError(`connection error before the greeting: ${error.code ?? error.message}`, 'ERR_CONNECTION'));
    const timer = setTimeout(() => done(new RunError(`no greeting within ${timeoutMs} ms`, 'ERR_TIMEOUT')), timeoutMs);
    if (reader) reader.fn = onData;
    else socket.on('data', onData);
    socket.on('close', onClose);
    socket.on('error', onError);
  });
}
