/**
 * The stream workload (docs/workloads.md#stream--the-2019-throughput-test): one-way bulk throughput timed at the
 * receiver, over the sink's own window, so the sender's buffering never flatters it; bytes counted, not verified.
 */
import { RunError } from '../core/errors.js';
import { SINK_HEADER_BYTES, SINK_REPLY_BYTES } from '../fixture/handlers.js';
import { MAX_SIZE } from '../core/limits.js';
import { KiB, MiB, formatSize } from '../core/units.js';
import { measureLoads, mechanismColumns, mechanismSummary, unitFigures } from './common.js';

/** A block moves at least this many bytes (and at least MIN_CHUNKS chunks). */
const MIN_BLOCK_BYTES = 16 * MiB;
const MIN_CHUNKS = 4;

/** @type {import('./workload.js').Workload} */
export const stream = {
  name: 'stream',
  what: 'one-way chunks of one size to a sink, as fast as backpressure allows; bytes and time counted at the receiver',
  timed: "a block: the receiver's window, from the arrival of its first read to the arrival of its last; the bytes after the first read over that window",
  axes: {
    size: { label: 'chunk size', short: 'chunks', flag: '--size', min: 1 * KiB, max: MAX_SIZE, fallback: 1 * MiB, powerOfTwo: true },
    depth: { label: 'streams per transport', short: 'streams', flag: '--depth', min: 1, max: 1, fallback: 1 },
  },
  options: [],
  counts: false,
  bytesInFlight: true,
  columns: ['chunks', 'blocks', 'block_chunks', 'bytes', 'elapsed_ms', 'gb_per_s',
    'client_cpu_ms_per_gb', 'server_cpu_ms_per_gb', 'client_elu', 'server_elu', ...mechanismColumns('chunk')],
  blockColumns: ['chunks', 'bytes', 'elapsed_ms', 'gb_per_s', 'client_cpu_ms_per_gb', 'server_cpu_ms_per_gb', 'client_elu', 'server_elu', ...mechanismColumns('chunk')],
  table: [['chunks', 'chunks'], ['GB/s', 'gb_per_s'], ['cpu ms/GB cli', 'client_cpu_ms_per_gb'], ['srv', 'server_cpu_ms_per_gb'], ['elu cli', 'client_elu'], ['srv', 'server_elu']],
  primary: 'gb_per_s',
  summary: {
    gb_per_s: { label: 'gigabytes per second at the receiver', short: 'GB/s', unit: 'GB/s', better: 'higher' },
    client_cpu_ms_per_gb: { label: 'sender CPU per gigabyte', short: 'client CPU ms/GB', unit: 'ms/GB', better: 'lower' },
    server_cpu_ms_per_gb: { label: 'receiver CPU per gigabyte', short: 'server CPU ms/GB', unit: 'ms/GB', better: 'lower' },
    ...mechanismSummary('chunk', 'chunk'),
  },
  fixture: { server: 'sink', proxy: false },
  needs: 'stream',
  async run(spec, context) {
    const [{ randomFillSync }, { connect }] = await Promise.all([import('node:crypto'), import('../client/transport.js')]);
    const chunk = randomFillSync(Buffer.allocUnsafe(spec.size)); // outside anything timed
    const loadOf = async (/** @type {import('../client/transport.js').Target} */ target) => createSender(
      await connect(target, { noDelay: spec.noDelay, timeoutMs: spec.timeoutMs, server: stream.fixture.server }), chunk, spec.timeoutMs);
    const gb = (/** @type {number} */ bytes) => bytes / 1e9;
    const perGb = (/** @type {number | null} */ us, /** @type {number} */ units) => (us === null ? null : us / 1000 / gb(units * spec.size));
    return measureLoads(stream, spec, context, loadOf, () => ({
      minUnits: Math.max(MIN_CHUNKS, Math.ceil(MIN_BLOCK_BYTES / spec.size)), units: 'chunks', floor: `${formatSize(MIN_BLOCK_BYTES)} and ${MIN_CHUNKS} chunks at least`,
      figures: (x) => ({
        ...unitFigures(x, { count: 'chunks', rate: 'chunks_per_s', per: 'chunk' }),
        bytes: x.bytes,
        gb_per_s: gb(x.bytes) / (x.elapsedMs / 1000),
        client_cpu_ms_per_gb: perGb(x.cpuUs, x.units),
        server_cpu_ms_per_gb: perGb(x.serverCpuUs, x.units),
      }),
    }));
  },
};

/**
 * One connection to the sink, sending blocks of chunks.
 * @param {import('node:net').Socket} socket
 * @param {Buffer} chunk written again and again, never changed
 * @param {number} timeoutMs fail when nothing moves for this long
 */
function createSender(socket, chunk, timeoutMs) {
  /** @type {Buffer[]} */
  let reply = [];
  let replyBytes = 0;
  /** @type {((b: Buffer) => void) | undefined} */
  let onReply;
  /** @type {Buffer | undefined} */
  let early;
  /** @type {Set<(e: Error) => void>} */
  const waiters = new Set();
  /** @type {Error | undefined} */
  let failure;
  const fail = (/** @type {Error} */ error) => {
    failure ??= error;
    socket.destroy();
    for (const reject of waiters) reject(failure);
    waiters.clear();
  };
  socket.on('data', (data) => {
    reply.push(data);
    replyBytes += data.length;
    if (replyBytes > SINK_REPLY_BYTES) fail(new RunError(`the sink sent ${replyBytes} bytes where its reply is ${SINK_REPLY_BYTES}`, 'ERR_VERIFY'));
    else if (replyBytes === SINK_REPLY_BYTES) {
      const whole = Buffer.concat(reply);
      reply = [];
      replyBytes = 0;
      if (onReply) onReply(whole);
      else early = whole; // a sink that answers before the block is written: checked when the block ends
    }
  });
  socket.on('error', (error) => fail(new RunError(`stream connection failed: ${error.message}`, 'ERR_CONNECTION')));
  socket.on('close', () => fail(new RunError('the sink closed the connection before the block was counted', 'ERR_CLOSED')));

  /**
   * Wait for an event with a stall timeout.
   * @template T
   * @param {(resolve: (value: T) => void) => void} arm
   * @param {string} what
   * @returns {Promise<T>}
   */
  const wait = (arm, what) => new Promise((resolve, reject) => {
    if (failure) {
      reject(failure);
      return;
    }
    const timer = setTimeout(() => fail(new RunError(`stream stalled: no ${what} within ${timeoutMs} ms`, 'ERR_TIMEOUT')), timeoutMs);
    const onFail = (/** @type {Error} */ error) => { clearTimeout(timer); reject(error); };
    waiters.add(onFail);
    arm((value) => { clearTimeout(timer); waiters.delete(onFail); resolve(value); });
  });

  return {
    /** @param {number} chunks */
    async block(chunks) {
      const header = Buffer.alloc(SINK_HEADER_BYTES);
      header.writeDoubleBE(chunks * chunk.length, 0);
      socket.write(header);
      for (let i = 0; i < chunks; i++) {
        if (failure) throw failure;
        if (!socket.write(chunk)) await wait((resolve) => socket.once('drain', () => resolve(undefined)), "'drain'");
      }
      // armed after the last write, so the stall clock starts here; a sink that answered early (a faulty one) was kept in `early`
      const r = early ?? await wait((/** @type {(b: Buffer) => void} */ resolve) => { onReply = resolve; }, 'reply from the sink');
      early = undefined;
      onReply = undefined;
      const windowMs = r.readDoubleBE(0) / 1e6;
      const counted = r.readDoubleBE(8);
      const total = r.readDoubleBE(16);
      if (total !== chunks * chunk.length) throw new RunError(`the sink counted ${total} bytes of ${chunks * chunk.length}`, 'ERR_VERIFY');
      if (!(windowMs > 0)) throw new RunError(`the sink's window was ${windowMs} ms: the block arrived in one read; blocks must be longer`, 'ERR_INTERNAL');
      return { start: 0, end: windowMs, bytes: counted };
    },
    abort: fail,
    /** Drop the connection, its close no failure. */
    async close() {
      socket.removeAllListeners('close');
      socket.destroy();
    },
  };
}
