/**
 * Real HTTP servers for the HTTP load client's tests: node:http on
 * 127.0.0.1 port 0 and on a socket file in a fresh temp dir at once, and raw
 * net servers on 127.0.0.1 port 0 that answer as told, for faults.
 */
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTcpServer } from './servers.js';

/**
 * @typedef {object} TestHttpServer
 * @property {{ transport: 'tcp', host: string, port: number }} tcp
 * @property {{ transport: 'uds', path: string }} uds
 * @property {() => { connections: number, requests: number, open: number }} counts accepted connections
 *   and requests so far, over both listeners, and connections still open
 * @property {() => Promise<void>} close
 */

/**
 * A node:http server that answers every request with 200 and `bodyBytes` bytes,
 * listening on TCP and UDS at once.
 * @param {{ bodyBytes?: number }} [options]
 * @returns {Promise<TestHttpServer>}
 */
export async function startHttpServer({ bodyBytes = 64 } = {}) {
  const body = Buffer.alloc(bodyBytes, 'x');
  let connections = 0;
  let requests = 0;
  /** @type {Set<import('node:net').Socket>} */
  const sockets = new Set();
  /** @param {http.IncomingMessage} _req @param {http.ServerResponse} res */
  const handler = (_req, res) => {
    requests++;
    res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/octet-stream' });
    res.end(body);
  };
  const make = () => {
    const server = http.createServer({ keepAliveTimeout: 60_000 }, handler);
    server.on('connection', (socket) => {
      connections++;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    return server;
  };
  const tcpServer = make();
  const udsServer = make();
  const { tcp, uds, dir } = await listenOnBoth(tcpServer, udsServer, 'udsvstcp-http-');
  return {
    tcp,
    uds,
    counts: () => ({ connections, requests, open: sockets.size }),
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all([tcpServer, udsServer].map((s) => new Promise((resolve) => s.close(() => resolve(undefined)))));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Listen on 127.0.0.1 port 0 with one server and on a socket in a fresh
 * private temp directory with the other.
 * @param {import('node:net').Server} tcpServer
 * @param {import('node:net').Server} udsServer
 * @param {string} prefix of the temp directory's name
 * @returns {Promise<{ tcp: { transport: 'tcp', host: string, port: number }, uds: { transport: 'uds', path: string }, dir: string }>}
 */
export async function listenOnBoth(tcpServer, udsServer, prefix) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const path = join(dir, 'http.sock');
  await new Promise((resolve) => tcpServer.listen(0, '127.0.0.1', () => resolve(undefined)));
  await new Promise((resolve) => udsServer.listen(path, () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (tcpServer.address());
  return { tcp: { transport: 'tcp', host: '127.0.0.1', port }, uds: { transport: 'uds', path }, dir };
}

/**
 * A raw HTTP/1.1 server on 127.0.0.1 port 0. Requests are GETs without a
 * body, so each ends at a blank line; `answer` gets the socket and the
 * indexes (per connection) of the requests that have arrived and are not
 * answered yet, and returns how many of the oldest it answered.
 * @param {(socket: import('node:net').Socket, waiting: number[]) => number} answer
 */
export function startRawHttpServer(answer) {
  return startTcpServer((socket) => {
    let text = '';
    let arrived = 0;
    /** @type {number[]} */
    let waiting = [];
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      for (let end = text.indexOf('\r\n\r\n'); end !== -1; end = text.indexOf('\r\n\r\n')) {
        text = text.slice(end + 4);
        waiting.push(arrived++);
      }
      waiting = waiting.slice(answer(socket, waiting));
    });
  });
}

/**
 * An HTTP/1.1 response with a body of `bytes` bytes.
 * @param {number} bytes
 * @param {{ status?: string, contentLength?: number, close?: boolean }} [options] contentLength: what the header
 *   claims, if not `bytes`; close: say `connection: close` (the server then ends the connection)
 */
export function response(bytes, { status = '200 OK', contentLength = bytes, close = false } = {}) {
  return Buffer.concat([Buffer.from(`HTTP/1.1 ${status}\r\ncontent-length: ${contentLength}\r\nconnection: ${close ? 'close' : 'keep-alive'}\r\n\r\n`), Buffer.alloc(bytes, 'y')]);
}
