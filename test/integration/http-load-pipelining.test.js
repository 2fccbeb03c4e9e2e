import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpLoad } from '../../lib/client/http-load.js';
import { response, startHttpServer, startRawHttpServer } from '../helpers/http-servers.js';

/**
 * Answers a connection's first request at once (it opens the connection),
 * then only when `depth` requests are waiting: a client that does not
 * pipeline that deep stalls.
 * @param {number} depth
 */
const needsDepth = (depth) => startRawHttpServer((socket, waiting) => {
  const ready = waiting[0] === 0 ? 1 : waiting.length >= depth ? waiting.length : 0;
  for (let i = 0; i < ready; i++) socket.write(response(32));
  return ready;
});

/** @type {import('../helpers/http-servers.js').TestHttpServer} */
let server;
beforeAll(async () => {
  server = await startHttpServer({ bodyBytes: 1000 });
});
afterAll(() => server.close());

describe('pipelining', () => {
  it('puts `pipelining` requests in flight on each connection', async () => {
    const raw = await needsDepth(4);
    const load = createHttpLoad(raw.target, { connections: 2, pipelining: 4, expectedBytes: 32, timeoutMs: 1000 });
    try {
      expect(await load.block(16)).toMatchObject({ requests: 16, bytes: 16 * 32 });
    } finally {
      await load.close();
      await raw.close();
    }
  });

  it('of 1 keeps one request in flight: the same server then stalls', async () => {
    const raw = await needsDepth(4);
    const load = createHttpLoad(raw.target, { connections: 2, pipelining: 1, expectedBytes: 32, timeoutMs: 150 });
    try {
      await expect(load.block(16)).rejects.toMatchObject({ code: 'ERR_TIMEOUT' });
    } finally {
      await load.close();
      await raw.close();
    }
  });

  it('works against node:http over UDS and TCP, with exact counts', async () => {
    for (const target of [server.uds, server.tcp]) {
      const load = createHttpLoad(target, { connections: 3, pipelining: 8, expectedBytes: 1000, timeoutMs: 2000 });
      try {
        expect(await load.block(500)).toMatchObject({ requests: 500, bytes: 500_000, connects: 0 });
      } finally {
        await load.close();
      }
    }
  });
});
