/**
 * A stream trial against sinks that misbehave: each becomes records with
 * status error and a one-line message, never a crash or a hang, and leaves
 * no connection open on either side.
 */
import net from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SINK_HEADER_BYTES, SINK_REPLY_BYTES } from '../../lib/fixture/handlers.js';
import { runTrial } from '../../lib/trial/trial.js';
import { useTempDir } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';

const tmp = useTempDir();

/**
 * A sink of our own on 127.0.0.1 port 0 and on a socket file, that does what `handler` says.
 * @param {(socket: net.Socket) => void} handler
 */
async function startBadSink(handler) {
  /** @type {Set<net.Socket>} */
  const open = new Set();
  const onConnection = (/** @type {net.Socket} */ socket) => {
    open.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => open.delete(socket));
    handler(socket);
  };
  const tcp = net.createServer(onConnection);
  const uds = net.createServer(onConnection);
  const path = join(tmp.dir, `bad-${Math.random().toString(36).slice(2)}.sock`);
  await new Promise((resolve) => tcp.listen(0, '127.0.0.1', () => resolve(undefined)));
  await new Promise((resolve) => uds.listen(path, () => resolve(undefined)));
  const { port } = /** @type {net.AddressInfo} */ (tcp.address());
  return {
    targets: /** @type {import('../../lib/client/transport.js').Target[]} */ ([{ transport: 'tcp', host: '127.0.0.1', port }, { transport: 'uds', path }]),
    open,
    close: async () => {
      for (const socket of open) socket.destroy();
      await Promise.all([tcp, uds].filter((server) => server.listening).map((server) => new Promise((resolve) => server.close(() => resolve(undefined)))));
    },
  };
}

/** Sockets and pipes of this process: both ends of a connection, a UDS listener, and vitest's own pipes. */
const countSockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap' || r === 'PipeWrap').length;
/** Before any test opened a socket. */
const baseline = countSockets();

/** The sockets and pipes open beyond the baseline, once closing ones have had time to close (bounded). */
async function socketsLeft() {
  await waitFor(() => countSockets() <= baseline, { timeoutMs: 1000 });
  return countSockets() - baseline;
}

/** Until every connection the bad sink accepted has closed (bounded). */
async function drained(/** @type {Set<net.Socket>} */ open) {
  await waitFor(() => open.size === 0, { timeoutMs: 1000 });
  return open.size;
}

/**
 * A stream trial of 64 KiB chunks over both targets of a bad sink.
 * @param {import('../../lib/client/transport.js').Target[]} targets
 * @param {number} timeoutMs
 */
const trial = (targets, timeoutMs) => runTrial({
  workload: 'stream', targets, size: 64 * 1024, depth: 1,
  measure: { ms: 30 }, warmup: { ms: 10 }, seed: 1, noDelay: true, timeoutMs, maxMs: 10_000,
});

/**
 * @param {Awaited<ReturnType<typeof trial>>} result
 * @param {RegExp} message
 */
function expectFailed(result, message) {
  expect(result.records.map((r) => [r.workload, r.transport, r.status])).toEqual([['stream', 'tcp', 'error'], ['stream', 'uds', 'error']]);
  for (const r of result.records) {
    expect(String(r.error)).not.toContain('\n');
    expect(r.error).toMatch(message);
  }
  expect(result.blocks).toEqual([]);
}

/**
 * Run a stream trial against a bad sink: both rows fail with `message`, the
 * sink sees every connection closed, and no socket is left on either side.
 * @param {(socket: net.Socket) => void} behave what the sink does per connection
 * @param {number} timeoutMs
 * @param {RegExp} message
 */
async function expectFailsCleanly(behave, timeoutMs, message) {
  const sink = await startBadSink(behave);
  try {
    expectFailed(await trial(sink.targets, timeoutMs), message);
    expect(await drained(sink.open)).toBe(0);
    await sink.close(); // its UDS listener is a pipe too
    expect(await socketsLeft()).toBe(0);
  } finally {
    await sink.close();
  }
}

describe('a stream trial against a bad sink', () => {
  it('that closes the connection after reading a little: error rows saying the connection ended, not a stall, nothing left open', async () => {
    await expectFailsCleanly((socket) => {
      let seen = 0;
      socket.on('data', (chunk) => {
        seen += chunk.length;
        if (seen > 100_000) socket.destroy();
      });
    }, 3000, /^(the sink closed the connection before the block was counted|stream connection failed: .*(ECONNRESET|EPIPE))/);
  });

  it('that reads everything and never replies: error rows naming the stall and its timeout, nothing left open', async () => {
    await expectFailsCleanly((socket) => socket.resume(), 150, /^stream stalled: no reply from the sink within 150 ms/);
  });

  it('that replies with a wrong total: error rows naming the bytes it counted', async () => {
    await expectFailsCleanly((socket) => {
      let headerSeen = false;
      socket.on('data', () => {
        if (headerSeen) return;
        headerSeen = true;
        const reply = Buffer.alloc(SINK_REPLY_BYTES);
        reply.writeDoubleBE(1e6, 0);
        reply.writeDoubleBE(7, 8);
        reply.writeDoubleBE(7, 16);
        socket.write(reply);
      });
    }, 3000, /^the sink counted 7 bytes of \d+/);
  });

  it('that sends more than its 24-byte reply: error rows naming the extra bytes', async () => {
    await expectFailsCleanly((socket) => {
      socket.once('data', () => socket.write(Buffer.alloc(SINK_REPLY_BYTES + SINK_HEADER_BYTES)));
      socket.resume();
    }, 3000, /^the sink sent 32 bytes where its reply is 24/);
  });
});
