/**
 * A tiny HTTP app server for nginx tests: one handler on 127.0.0.1 port 0
 * and on a socket file in a fresh temp dir; it answers every request with
 * `<transport> ok` and records what nginx sent it. Plus a GET helper.
 */
import http from 'node:http';
import { listenOnBoth } from './http-servers.js';
import { rm } from 'node:fs/promises';

/**
 * @typedef {object} SeenRequest
 * @property {'tcp' | 'uds'} transport
 * @property {string} httpVersion
 * @property {string | undefined} connection the Connection header nginx sent
 */

/**
 * @returns {Promise<{ tcp: { transport: 'tcp', host: string, port: number }, uds: { transport: 'uds', path: string },
 *   requests: SeenRequest[], connections: { tcp: number, uds: number }, close: () => Promise<void> }>}
 */
export async function startHttpUpstream() {
  /** @type {SeenRequest[]} */
  const requests = [];
  const connections = { tcp: 0, uds: 0 };
  /** @param {'tcp' | 'uds'} transport */
  const create = (transport) => {
    const server = http.createServer((request, response) => {
      requests.push({ transport, httpVersion: request.httpVersion, connection: request.headers.connection });
      response.setHeader('content-type', 'text/plain');
      response.end(`${transport} ok`);
    });
    server.on('connection', () => { connections[transport]++; });
    return server;
  };
  const tcpServer = create('tcp');
  const udsServer = create('uds');
  const { tcp, uds, dir } = await listenOnBoth(tcpServer, udsServer, 'nginx-test-app-');
  return {
    tcp,
    uds,
    requests,
    connections,
    async close() {
      for (const server of [tcpServer, udsServer]) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(() => resolve(undefined)));
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * GET / on a loopback port with a fresh connection.
 * @param {number} port
 * @returns {Promise<{ status: number, body: string }>}
 */
export function get(port) {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/', agent: false, timeout: 5000 }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (text) => { body += text; });
      response.once('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.once('error', reject);
    });
    request.once('timeout', () => request.destroy(new Error('no answer within 5 s')));
    request.once('error', reject);
  });
}

/**
 * Is this process (or a zombie of it) still there?
 * @param {number} pid
 */
export function exists(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
