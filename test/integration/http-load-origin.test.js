import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpLoad } from '../../lib/client/http-load.js';
import { httpOrigin } from '../../lib/client/transport.js';
import { startHttpServer, startRawHttpServer } from '../helpers/http-servers.js';

/** @type {import('../helpers/http-servers.js').TestHttpServer} */
let server;
beforeAll(async () => {
  server = await startHttpServer({ bodyBytes: 16 });
});
afterAll(() => server.close());

describe('where the HTTP client connects', () => {
  it('is the origin httpOrigin() gives: host and port, a socket file, or the proxy in front (via)', () => {
    expect(httpOrigin({ transport: 'tcp', host: '127.0.0.1', port: 8080 })).toEqual({ origin: 'http://127.0.0.1:8080' });
    expect(httpOrigin({ transport: 'tcp', host: '::1', port: 8080 })).toEqual({ origin: 'http://[::1]:8080' });
    expect(httpOrigin({ transport: 'uds', path: '/tmp/x/http.sock' })).toEqual({ origin: 'http://localhost', socketPath: '/tmp/x/http.sock' });
    const via = { host: '127.0.0.1', port: 9090 };
    expect(httpOrigin({ transport: 'uds', path: '/tmp/x/http.sock', via })).toEqual({ origin: 'http://127.0.0.1:9090' });
    expect(httpOrigin({ transport: 'tcp', host: '127.0.0.1', port: 8080, via })).toEqual({ origin: 'http://127.0.0.1:9090' });
  });

  it('is the proxy for a target behind one, never the target itself', async () => {
    // a UDS target whose socket file does not exist, "behind" our TCP listener
    const target = /** @type {const} */ ({ transport: 'uds', path: '/nonexistent/http.sock', via: { host: server.tcp.host, port: server.tcp.port } });
    const load = createHttpLoad(target, { connections: 2, expectedBytes: 16, timeoutMs: 2000 });
    try {
      expect(await load.block(10)).toMatchObject({ requests: 10, bytes: 160 });
    } finally {
      await load.close();
    }
    const gone = await startRawHttpServer(() => 0);
    await gone.close();
    const { port } = gone.target;
    const lost = createHttpLoad({ ...target, via: { host: '127.0.0.1', port } }, { connections: 1, expectedBytes: 16, timeoutMs: 2000 });
    try {
      await expect(lost.block(1)).rejects.toMatchObject({ code: 'ERR_CONNECT', message: `cannot connect to uds /nonexistent/http.sock via 127.0.0.1:${port}: ECONNREFUSED (is the proxy running?)` });
    } finally {
      await lost.close();
    }
  });
});
