/**
 * What the server fixture answers with, one per kind of workload: an echo,
 * a sink that counts what it receives over its own window, a greeter that
 * writes 12 bytes and closes, and an HTTP responder. Each is a factory of a
 * fresh net or http server; lib/server.js binds it to TCP and UDS at once.
 */
import http from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { MAX_SIZE } from './limits.js';

/** What the 2014 server wrote on each connection before echoing. */
export const ECHO_GREETING = 'start sending now!';
/** What the 2017 connection-rate server wrote before closing. */
export const CONNECT_GREETING = 'Hello there!';
/** The sink's block header: the payload bytes to expect, a float64 (big-endian). */
export const SINK_HEADER_BYTES = 8;
/** The sink's reply at a block's end: window ns, bytes counted in the window, bytes in all (float64 each). */
export const SINK_REPLY_BYTES = 24;
/** Largest HTTP response body. */
export const MAX_BODY = MAX_SIZE;

/**
 * @typedef {object} HandlerOptions
 * @property {boolean} [greeting] echo: write the 2014 greeting first
 * @property {boolean} [noDelay] TCP_NODELAY on accepted TCP connections (default true)
 */

/** @type {Record<'echo' | 'sink' | 'greeter' | 'http', (options: HandlerOptions) => net.Server>} */
export const HANDLERS = {
  echo: ({ greeting = false, noDelay = true }) => net.createServer({ noDelay }, (socket) => {
    if (greeting) socket.write(ECHO_GREETING);
    socket.pipe(socket); // byte-exact, and pauses reading while the peer is not reading
  }),
  sink: ({ noDelay = true }) => net.createServer({ noDelay }, sink),
  greeter: ({ noDelay = true }) => net.createServer({ noDelay }, (socket) => {
    socket.end(CONNECT_GREETING);
  }),
  http: ({ noDelay = true }) => {
    const server = http.createServer({ noDelay }, respond);
    server.keepAliveTimeout = 60_000; // idle gaps between blocks must not close a client's keep-alive connections
    return server;
  },
};

/**
 * The sink: per block, a header saying how many bytes follow, then the
 * bytes. It counts them, stamps the first and the last read, and answers
 * with its own window: the time from the arrival of the first read to the
 * arrival of the last, and the bytes that came after the first read (the
 * ones that window covers).
 * @param {net.Socket} socket
 */
function sink(socket) {
  const header = Buffer.alloc(SINK_HEADER_BYTES);
  let headerHave = 0;
  let expect = -1; // payload bytes still to come in this block; -1: reading a header
  let total = 0;
  let first = 0;
  let firstBytes = 0;
  let last = 0;
  socket.on('data', (chunk) => {
    const now = performance.now();
    let pos = 0;
    while (pos < chunk.length) {
      if (expect < 0) {
        const take = Math.min(SINK_HEADER_BYTES - headerHave, chunk.length - pos);
        chunk.copy(header, headerHave, pos, pos + take);
        headerHave += take;
        pos += take;
        if (headerHave < SINK_HEADER_BYTES) return;
        headerHave = 0;
        expect = header.readDoubleBE(0);
        total = expect;
        first = -1;
        continue;
      }
      const take = Math.min(expect, chunk.length - pos);
      if (first < 0) {
        first = now;
        firstBytes = take;
      }
      last = now;
      expect -= take;
      pos += take;
      if (expect === 0) {
        const reply = Buffer.alloc(SINK_REPLY_BYTES);
        reply.writeDoubleBE((last - first) * 1e6, 0);
        reply.writeDoubleBE(total - firstBytes, 8);
        reply.writeDoubleBE(total, 16);
        socket.write(reply);
        expect = -1;
      }
    }
  });
}

/** Response bodies, one per size asked for (a view of one random buffer). */
let bodyPool = Buffer.alloc(0);

/**
 * The HTTP responder: `GET /<n>` answers 200 with a body of n bytes.
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 */
function respond(req, res) {
  const n = Number((req.url ?? '').slice(1));
  if (!Number.isInteger(n) || n < 0 || n > MAX_BODY) {
    res.writeHead(400, { 'content-type': 'text/plain' }).end(`GET /<bytes>, 0 to ${MAX_BODY}\n`);
    return;
  }
  if (bodyPool.length < n) bodyPool = Buffer.alloc(n, 0x61);
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': n });
  res.end(bodyPool.subarray(0, n));
}
