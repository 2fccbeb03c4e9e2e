import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpLoad } from '../../lib/client/http-load.js';
import { response, startHttpServer, startRawHttpServer } from '../helpers/http-servers.js';

/** @type {import('../helpers/http-servers.js').TestHttpServer} */
let server;
beforeAll(async () => {
  server = await startHttpServer({ bodyBytes: 256 });
});
afterAll(() => server.close());

describe('keep-alive connections', () => {
  it('are opened once, before the first block, and reused by every block on TCP and UDS alike', async () => {
    const connections = 10;
    const tcp = createHttpLoad(server.tcp, { connections, expectedBytes: 256, timeoutMs: 2000 });
    const uds = createHttpLoad(server.uds, { connections, expectedBytes: 256, timeoutMs: 2000 });
    try {
      const warm = await tcp.block(5);
      expect(warm).toMatchObject({ requests: 5, connects: 0 });
      expect(server.counts().connections).toBe(connections);
      await uds.block(40);
      expect(server.counts().connections).toBe(2 * connections);
      for (let k = 0; k < 6; k++) {
        const block = await (k % 2 === 0 ? tcp : uds).block(200);
        expect(block).toMatchObject({ requests: 200, bytes: 200 * 256, connects: 0 });
      }
      expect(server.counts().connections).toBe(2 * connections);
      expect(server.counts().open).toBe(2 * connections);
    } finally {
      await Promise.all([tcp.close(), uds.close()]);
    }
  });

  it('that the server closes are opened again, and the block says so in `connects`', async () => {
    let answered = 0;
    const raw = await startRawHttpServer((socket) => {
      const close = ++answered === 20; // the 20th response, in the first block, closes its connection
      socket.write(response(8, { close }));
      if (close) socket.end();
      return 1;
    });
    const load = createHttpLoad(raw.target, { connections: 1, expectedBytes: 8, timeoutMs: 2000 });
    try {
      expect(await load.block(30)).toMatchObject({ requests: 30, connects: 1 });
      expect(await load.block(30)).toMatchObject({ requests: 30, connects: 0 });
    } finally {
      await load.close();
      await raw.close();
    }
  });
});
