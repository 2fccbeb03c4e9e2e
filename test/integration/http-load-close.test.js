import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpLoad } from '../../lib/client/http-load.js';
import { startHttpServer, startRawHttpServer } from '../helpers/http-servers.js';

const run = promisify(execFile);
const HTTP_LOAD = new URL('../../lib/client/http-load.js', import.meta.url).href;

/** @type {import('../helpers/http-servers.js').TestHttpServer} */
let server;
beforeAll(async () => {
  server = await startHttpServer({ bodyBytes: 64 });
});
afterAll(() => server.close());

describe('close()', () => {
  it('leaves no open handles: a client process exits by itself once it has closed', async () => {
    const client = `
      import { createHttpLoad } from ${JSON.stringify(HTTP_LOAD)};
      const targets = JSON.parse(process.argv[1]);
      const out = process.stdout; // a pipe: a resource of its own
      const before = process.getActiveResourcesInfo();
      const loads = targets.map((target) => createHttpLoad(target, { connections: 5, pipelining: 2, expectedBytes: 64, timeoutMs: 2000 }));
      for (const load of loads) await load.block(100);
      await Promise.all(loads.map((load) => load.close()));
      setImmediate(() => out.write(JSON.stringify({ before, after: process.getActiveResourcesInfo() })));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', client, JSON.stringify([server.tcp, server.uds])], { timeout: 20_000 }); // exits by itself: killed, and failing, only if it hangs
    // nothing open that was not open before the loads (stdio pipes, say)
    const { before, after } = JSON.parse(stdout);
    const count = (/** @type {string[]} */ list) => Object.fromEntries([...new Set([...before, ...after])].map((type) => [type, list.filter((t) => t === type).length]));
    for (const [type, n] of Object.entries(count(after))) expect({ type, n }).toEqual({ type, n: Math.min(n, count(before)[type]) });
    expect(server.counts().connections).toBe(10);
  });

  it('during a block fails that block with ERR_CLOSED', async () => {
    // answers the request that opens the connection, then none: says when the next one arrives
    let stalled = () => {};
    const stuck = new Promise((resolve) => { stalled = () => resolve(undefined); });
    const mute = await startRawHttpServer((socket, waiting) => {
      if (waiting[0] === 0) {
        socket.write('HTTP/1.1 200 OK\r\ncontent-length: 1\r\n\r\nx');
        return 1;
      }
      if (waiting.length > 0) stalled();
      return 0;
    });
    const load = createHttpLoad(mute.target, { connections: 1, expectedBytes: 1, timeoutMs: 2000 });
    try {
      const outcome = load.block(5).then(() => undefined, (/** @type {unknown} */ error) => error);
      await stuck; // a request of the block is in flight
      await load.close();
      expect(await outcome).toMatchObject({ code: 'ERR_CLOSED', message: 'closed with 1 requests in flight' });
      await expect(load.block(1)).rejects.toMatchObject({ code: 'ERR_CLOSED' });
    } finally {
      await load.close();
      await mute.close();
    }
  });
});
