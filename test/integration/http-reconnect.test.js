/**
 * A server that closes keep-alive connections makes the http client open new
 * ones during measured blocks: those blocks would time connection setup, so
 * the trial fails with ERR_RECONNECT's message instead of reporting them.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../lib/fixture/server.js';
import { runTrial } from '../../lib/trial/trial.js';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
beforeAll(async () => {
  // every response says Connection: close, and the server closes after it
  server = await startServer({
    name: 'closing',
    createServer: () => http.createServer((req, res) => {
      const n = Number((req.url ?? '').slice(1));
      res.writeHead(200, { 'content-length': n, connection: 'close' }).end(Buffer.alloc(n, 0x61));
    }),
  });
});
afterAll(() => server.close());

describe('http workload against a server that closes its connections', () => {
  it('fails the trial, saying the blocks timed new connections, for each transport', async () => {
    const result = await runTrial({
      workload: 'http',
      targets: [{ transport: 'tcp', ...server.tcp }, { transport: 'uds', path: server.uds.path }],
      size: 16, depth: 2, measure: { ms: 20 }, warmup: { ms: 5 }, seed: 1, noDelay: true, timeoutMs: 2000,
    });
    expect(result.records.map((r) => r.status)).toEqual(['error', 'error']);
    for (const r of result.records) expect(r.error).toMatch(/connection\(s\) were opened again during measured blocks .* those blocks timed connection setup$/);
  });
});
