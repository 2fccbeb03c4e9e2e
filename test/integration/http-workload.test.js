/**
 * The http workload through the CLI's main(), in this process: `run
 * --workload http` starts its own HTTP server, measures every stream
 * transport (the abstract socket on Linux) and compares their req/s against
 * TCP's; `--pipelining` reaches the wire; nothing is left running. And the
 * server's handler on its own: `GET /<n>` answers n bytes, anything else 400.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDLERS } from '../../lib/fixture/handlers.js';
import { FILL_FACTOR } from '../../lib/workloads/http.js';
import { startServer } from '../../lib/fixture/server.js';
import { callMainLeavingNothing } from '../helpers/in-process.js';
import { expectMechanismFigures } from '../helpers/mechanism.js';
import { expectPinnedRunKeys } from '../helpers/schema.js';
import { response } from '../helpers/http-servers.js';

const TRANSPORTS = process.platform === 'linux' ? ['tcp', 'uds', 'uds-abstract'] : ['tcp', 'uds'];

/** @param {string} stdout */
const jsonLines = (stdout) => stdout.trim().split('\n').map((line) => JSON.parse(line));

describe('udsvstcp run --workload http', () => {
  it(`--connections 2 --pipelining 2 over ${TRANSPORTS.join(', ')}: exits 0, one ok http record per transport, and the req/s comparison against TCP`, async () => {
    const { code, stdout, stderr } = await callMainLeavingNothing(['run', '--workload', 'http', '--transport', TRANSPORTS.join(','), '--duration', '50ms', '--warmup', '10ms', '--connections', '2', '--pipelining', '2', '--json']);
    expect(code, stderr).toBe(0);
    const records = jsonLines(stdout);
    expect(records.map((r) => r.transport).sort()).toEqual([...TRANSPORTS].sort());
    for (const r of records) {
      expectPinnedRunKeys(r, 'http');
      expectMechanismFigures(r);
      expect(r).toMatchObject({ workload: 'http', size_bytes: 64, depth: 2, status: 'ok', error: '' });
      expect(r.block_requests).toBeGreaterThanOrEqual(FILL_FACTOR * 2 * 2); // a block fills every connection × pipelining slot
      expect(r.requests).toBe(r.blocks * r.block_requests);
      expect(r.mb_per_s).toBeCloseTo((r.req_per_s * 64) / 1e6, 6); // every body was the 64 bytes asked for
      expect(r.server_cpu_us_per_req).toBeGreaterThan(0);
    }
    expect(stderr).toMatch(/http body size 64 B × connections 2, 50 ms per transport after 10 ms warmup, in alternating blocks, pipelining 2, seed \d+, TCP noDelay true\n/);
    expect(stderr).toMatch(/64 B connections 2: UDS ×\d+\.\d\d the req\/s of TCP \(95 % CI \d+\.\d\d–\d+\.\d\d/);
    if (TRANSPORTS.includes('uds-abstract')) expect(stderr).toMatch(/64 B connections 2: UDS abstract ×\d+\.\d\d the req\/s of TCP/);
  });

  it('--pipelining 2 puts two requests in flight on each of its --connections, never more', async () => {
    const server = await startHoldingServer();
    try {
      const { code, stderr } = await callMainLeavingNothing(['run', '--workload', 'http', '--transport', 'tcp', '--tcp', `127.0.0.1:${server.port}`,
        '--connections', '2', '--pipelining', '2', '--duration', '50ms', '--warmup', '10ms', '--timeout', '2s']);
      expect(code, stderr).toBe(0);
      expect(server.most()).toBe(2);
      expect(server.connections()).toBe(2);
    } finally {
      await server.close();
    }
  });
});

/**
 * A raw HTTP/1.1 server on 127.0.0.1 port 0 that holds a connection's
 * answers until two requests wait on it (or 20 ms pass), and notes the most
 * that ever waited at once. GETs have no body: each ends at a blank line.
 */
async function startHoldingServer() {
  let most = 0;
  let connections = 0;
  /** @type {Set<net.Socket>} */
  const sockets = new Set();
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    let text = '';
    let waiting = 0;
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    const answer = () => {
      clearTimeout(timer);
      timer = undefined;
      for (; waiting > 0; waiting--) socket.write(response(64));
    };
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      for (let end = text.indexOf('\r\n\r\n'); end !== -1; end = text.indexOf('\r\n\r\n')) {
        text = text.slice(end + 4);
        waiting++;
      }
      most = Math.max(most, waiting);
      if (waiting >= 2) answer();
      else if (waiting > 0) timer ??= setTimeout(answer, 20);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  return {
    port: /** @type {net.AddressInfo} */ (server.address()).port,
    most: () => most,
    connections: () => connections,
    close: () => new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve(undefined));
    }),
  };
}

describe('the http server handler', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  beforeAll(async () => {
    server = await startServer({ createServer: () => HANDLERS.http({}), name: 'http' });
  });
  afterAll(() => server.close());

  /**
   * GET a path over a transport.
   * @param {'tcp' | 'uds'} transport
   * @param {string} path
   * @returns {Promise<{ status: number | undefined, body: Buffer }>}
   */
  const get = (transport, path) => new Promise((resolve, reject) => {
    const where = transport === 'tcp' ? { host: server.tcp.host, port: server.tcp.port } : { socketPath: server.uds.path };
    http.get({ ...where, path, agent: false }, (res) => {
      /** @type {Buffer[]} */
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });

  it.each(/** @type {const} */ (['tcp', 'uds']))('over %s: GET /64 and GET /8 answer 200 with that many bytes, GET /0 an empty body', async (transport) => {
    for (const n of [64, 8, 0]) {
      const { status, body } = await get(transport, `/${n}`);
      expect(status).toBe(200);
      expect(body).toHaveLength(n);
    }
  });

  it.each(['/abc', '/-1', '/1.5', '/67108865'])('GET %s answers 400 saying what it takes', async (path) => {
    const { status, body } = await get('tcp', path);
    expect(status).toBe(400);
    expect(body.toString()).toBe('GET /<bytes>, 0 to 67108864\n');
  });
});
