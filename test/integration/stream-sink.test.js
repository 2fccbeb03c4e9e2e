/**
 * The stream workload's sink protocol on a real server, over TCP and UDS: a
 * block is an 8-byte float64 BE header (the payload bytes to follow) and
 * the payload; the sink answers each block with 24 bytes (window ns, bytes
 * counted after its first read of the payload, total). Then a real stream
 * trial: the counted bytes, its throughput, and its blocks alternating.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDLERS, SINK_HEADER_BYTES, SINK_REPLY_BYTES } from '../../lib/fixture/handlers.js';
import { startServer } from '../../lib/fixture/server.js';
import { connect } from '../../lib/client/transport.js';
import { runTrial } from '../../lib/trial/trial.js';
import { waitFor } from '../helpers/wait.js';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
beforeAll(async () => {
  server = await startServer({ createServer: () => HANDLERS.sink({}), name: 'sink' });
});
afterAll(() => server.close());

/** @param {'tcp' | 'uds'} transport @returns {import('../../lib/client/transport.js').Target} */
const targetOf = (transport) => (transport === 'tcp' ? { transport, ...server.tcp } : { transport, path: server.uds.path });

/** @param {number} bytes */
function header(bytes) {
  const h = Buffer.alloc(SINK_HEADER_BYTES);
  h.writeDoubleBE(bytes, 0);
  return h;
}

/** @param {number} n distinct, non-zero bytes */
const payload = (n) => Buffer.from(Array.from({ length: n }, (_, i) => 1 + (i % 251)));

/**
 * Write each piece only once the sink has read everything before it, so
 * every piece reaches the sink's handler as reads of its own. (The server
 * runs in this process: its bytes_in grows before its 'data' handler runs,
 * and both happen before this polls again.)
 * @param {import('node:net').Socket} socket
 * @param {Buffer[]} pieces
 */
async function writeAsSeparateReads(socket, pieces) {
  let expected = server.stats().bytes_in;
  for (const piece of pieces) {
    socket.write(piece);
    expected += piece.length;
    if (!(await waitFor(() => server.stats().bytes_in >= expected, { everyMs: 1 }))) throw new Error(`the sink read ${server.stats().bytes_in} of ${expected} bytes`);
  }
}

/**
 * Connect, send the pieces as separate reads, end, and return every byte the sink sent back.
 * @param {'tcp' | 'uds'} transport
 * @param {Buffer[]} pieces
 */
async function exchange(transport, pieces) {
  const socket = await connect(targetOf(transport), { timeoutMs: 5000 });
  /** @type {Buffer[]} */
  const got = [];
  socket.on('data', (data) => got.push(data));
  const ended = new Promise((resolve, reject) => {
    socket.once('end', () => resolve(undefined));
    socket.once('error', reject);
  });
  try {
    await writeAsSeparateReads(socket, pieces);
    socket.end(); // the sink ends its side in turn: whatever it sent is in by then
    await ended;
  } finally {
    socket.destroy();
  }
  return Buffer.concat(got);
}

/** @param {Buffer} reply @param {number} at */
const readReply = (reply, at = 0) => ({
  windowNs: reply.readDoubleBE(at),
  counted: reply.readDoubleBE(at + 8),
  total: reply.readDoubleBE(at + 16),
});

describe.each(/** @type {const} */ (['tcp', 'uds']))('the sink over %s', (transport) => {
  it('answers a header split across writes and a payload in several writes with one reply: total N, counted N minus the first read', async () => {
    const n = 50_000;
    const data = payload(n);
    const h = header(n);
    const reply = await exchange(transport, [h.subarray(0, 3), Buffer.concat([h.subarray(3), data.subarray(0, 100)]), data.subarray(100, 30_000), data.subarray(30_000)]);
    expect(reply).toHaveLength(SINK_REPLY_BYTES);
    const { windowNs, counted, total } = readReply(reply);
    expect(total).toBe(n);
    expect(counted).toBe(n - 100);
    expect(windowNs).toBeGreaterThan(0); // its first and last reads were separate reads
  });

  it('answers a header and payload in one write, the rest after: counted excludes the payload of that first read', async () => {
    const n = 20_000;
    const data = payload(n);
    const reply = await exchange(transport, [Buffer.concat([header(n), data.subarray(0, 500)]), data.subarray(500)]);
    expect(reply).toHaveLength(SINK_REPLY_BYTES);
    expect(readReply(reply)).toMatchObject({ total: n, counted: n - 500 });
  });

  it('answers a whole block in one read with counted 0 and a window of 0', async () => {
    const reply = await exchange(transport, [Buffer.concat([header(1000), payload(1000)])]);
    expect(reply).toHaveLength(SINK_REPLY_BYTES);
    expect(readReply(reply)).toEqual({ windowNs: 0, counted: 0, total: 1000 });
  });

  it('answers two blocks on one connection with a reply each, the second header arriving in the same read as the first block\'s end', async () => {
    const [n1, n2] = [30_000, 12_345];
    const [a, b] = [payload(n1), payload(n2)];
    const reply = await exchange(transport, [
      Buffer.concat([header(n1), a.subarray(0, 1000)]),
      Buffer.concat([a.subarray(1000), header(n2), b.subarray(0, 45)]),
      b.subarray(45),
    ]);
    expect(reply).toHaveLength(2 * SINK_REPLY_BYTES);
    expect(readReply(reply, 0)).toMatchObject({ total: n1, counted: n1 - 1000 });
    expect(readReply(reply, SINK_REPLY_BYTES)).toMatchObject({ total: n2, counted: n2 - 45 });
  });
});

describe('a stream trial over UDS and TCP', () => {
  it('counts the bytes after each block\'s first read, gives GB/s, and alternates the transports block by block', async () => {
    const size = 1024 * 1024;
    const { records, blocks } = await runTrial({
      workload: 'stream', targets: [targetOf('uds'), targetOf('tcp')], size, depth: 1,
      measure: { ms: 30 }, warmup: { ms: 10 }, seed: 1, noDelay: true, timeoutMs: 5000,
    }, { probe: { snapshot: async () => server.stats() } });
    expect(records.map((r) => [r.transport, r.status, r.error])).toEqual([['uds', 'ok', ''], ['tcp', 'ok', '']]);
    for (const b of blocks) {
      expect(b.bytes).toBeGreaterThan(0);
      expect(b.bytes).toBeLessThan(b.chunks * size); // the sink's first read of a block is not counted, and it held bytes
      expect(b.gb_per_s).toBeGreaterThan(0);
    }
    for (const r of records) {
      const mine = blocks.filter((b) => b.transport === r.transport);
      expect(r.blocks).toBe(mine.length);
      expect(r.chunks).toBe(mine.length * Number(r.block_chunks));
      expect(r.bytes).toBe(mine.reduce((sum, b) => sum + b.bytes, 0));
      expect(Number(r.bytes)).toBeGreaterThan(0);
      expect(Number(r.bytes)).toBeLessThanOrEqual(Number(r.chunks) * size);
      expect(Number(r.gb_per_s)).toBeGreaterThan(0);
      expect(Number(r.server_cpu_ms_per_gb)).toBeGreaterThan(0);
    }
    const order = blocks.map((b) => b.transport);
    expect(order.length).toBeGreaterThanOrEqual(4);
    for (let k = 0; k < order.length; k += 2) expect(order.slice(k, k + 2), `blocks ${k} and ${k + 1}`).toEqual(k % 4 === 0 ? ['uds', 'tcp'] : ['tcp', 'uds']);
  });
});
