import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistogram } from 'node:perf_hooks';
import { createHttpLoad } from '../../lib/client/http-load.js';
import { startHttpServer } from '../helpers/http-servers.js';

/** @type {Record<number, import('../helpers/http-servers.js').TestHttpServer>} */
const servers = {};
beforeAll(async () => {
  for (const bytes of [64, 16384]) servers[bytes] = await startHttpServer({ bodyBytes: bytes });
});
afterAll(() => Promise.all(Object.values(servers).map((s) => s.close())));

describe('a block', () => {
  for (const transport of /** @type {const} */ (['tcp', 'uds'])) {
    for (const bodyBytes of [64, 16384]) {
      it(`sends exactly n requests and reads n × the body, over ${transport} with ${bodyBytes} B bodies`, async () => {
        const server = servers[bodyBytes];
        const before = server.counts().requests;
        const load = createHttpLoad(server[transport], { connections: 4, expectedBytes: bodyBytes, timeoutMs: 2000 });
        try {
          const histogram = createHistogram();
          const first = await load.block(101, histogram);
          expect(first).toMatchObject({ requests: 101, bytes: 101 * bodyBytes, connects: 0 });
          expect(first.end).toBeGreaterThan(first.start);
          expect(histogram.count).toBe(101);
          expect(histogram.min).toBeGreaterThanOrEqual(1);
          const second = await load.block(3); // fewer than the connections
          expect(second).toMatchObject({ requests: 3, bytes: 3 * bodyBytes, connects: 0 });
          expect(second.start).toBeGreaterThanOrEqual(first.end);
          expect(histogram.count).toBe(101);
          // one request on each connection opened them, before the first block
          expect(server.counts().requests - before).toBe(4 + 101 + 3);
        } finally {
          await load.close();
        }
      });
    }
  }

  it('is refused while another runs, and needs at least one request', async () => {
    const load = createHttpLoad(servers[64].tcp, { connections: 2, expectedBytes: 64, timeoutMs: 2000 });
    try {
      await load.block(2);
      const running = load.block(50);
      await expect(load.block(1)).rejects.toMatchObject({ code: 'ERR_INTERNAL' });
      expect((await running).requests).toBe(50);
      await expect(load.block(0)).rejects.toMatchObject({ code: 'ERR_INTERNAL' });
      expect((await load.block(1)).requests).toBe(1);
    } finally {
      await load.close();
    }
  });
});
