import { describe, expect, it } from 'vitest';
import { createHttpLoad } from '../../lib/client/http-load.js';
import { response, startRawHttpServer } from '../helpers/http-servers.js';

/**
 * A server that answers request k (counted over all connections) with
 * `respond(k)`, or not at all when it returns undefined.
 * @param {(k: number) => Buffer | 'close' | undefined} respond
 */
const serverOf = (respond) => {
  let k = 0;
  return startRawHttpServer((socket, waiting) => {
    for (let i = 0; i < waiting.length; i++) {
      const out = respond(k);
      if (out === undefined) return i;
      k++;
      if (out === 'close') {
        socket.destroy();
        return waiting.length;
      }
      socket.write(out);
    }
    return waiting.length;
  });
};

/**
 * Run blocks against `respond` until one fails; return that error and how long it took.
 * @param {(k: number) => Buffer | 'close' | undefined} respond
 * @param {number} [timeoutMs]
 */
async function failureOf(respond, timeoutMs = 2000) {
  const server = await serverOf(respond);
  const load = createHttpLoad(server.target, { connections: 2, pipelining: 2, expectedBytes: 64, timeoutMs });
  const started = performance.now();
  try {
    await load.block(20);
    await load.block(20);
    throw new Error('no block failed');
  } catch (error) {
    const took = performance.now() - started;
    // the load stays failed with the same error
    await expect(load.block(1)).rejects.toBe(error);
    return { error: /** @type {Error & { code?: string }} */ (error), took };
  } finally {
    await load.close();
    await server.close();
  }
}

describe('responses that are not what was asked fail with ERR_VERIFY', () => {
  it('a body one byte short', async () => {
    const { error } = await failureOf((k) => response(k === 25 ? 63 : 64));
    expect(error).toMatchObject({ name: 'RunError', code: 'ERR_VERIFY' });
    expect(error.message).toMatch(/^tcp 127\.0\.0\.1:\d+: expected a response body of 64 bytes, got 63 \(Content-Length\)$/);
  });

  it('a chunked body that runs past the size', async () => {
    const chunked = Buffer.from(`HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n40\r\n${'z'.repeat(64)}\r\n1\r\nz\r\n0\r\n\r\n`);
    const { error } = await failureOf((k) => (k === 3 ? chunked : response(64)));
    expect(error).toMatchObject({ code: 'ERR_VERIFY' });
    expect(error.message).toMatch(/expected a response body of 64 bytes, got 65 or more$/);
  });

  it('a status other than 200', async () => {
    const { error } = await failureOf((k) => (k === 7 ? response(64, { status: '404 Not Found' }) : response(64)));
    expect(error).toMatchObject({ code: 'ERR_VERIFY' });
    expect(error.message).toMatch(/expected status 200, got 404 Not Found$/);
  });
});

describe('servers that stop fail the block, never hang it', () => {
  it('a server that stops answering: ERR_TIMEOUT within the bound', async () => {
    const { error, took } = await failureOf((k) => (k < 30 ? response(64) : undefined), 200);
    expect(error).toMatchObject({ code: 'ERR_TIMEOUT' });
    expect(error.message).toMatch(/^no response from tcp 127\.0\.0\.1:\d+ for 200 ms \(--timeout\) with 4 requests in flight after 8 complete$/);
    expect(took).toBeGreaterThanOrEqual(200);
    expect(took).toBeLessThan(1000);
  });

  it('a server that closes the connection mid-block: ERR_CLOSED', async () => {
    const { error } = await failureOf((k) => (k < 12 ? response(64) : 'close'));
    expect(error).toMatchObject({ code: 'ERR_CLOSED' });
  });

  it('no server: ERR_CONNECT', async () => {
    const server = await startRawHttpServer(() => 0);
    const target = server.target;
    await server.close();
    const load = createHttpLoad(target, { connections: 2, expectedBytes: 64, timeoutMs: 1000 });
    try {
      await expect(load.block(1)).rejects.toMatchObject({ code: 'ERR_CONNECT', message: expect.stringMatching(/ECONNREFUSED \(is the HTTP server running\?\)$/) });
    } finally {
      await load.close();
    }
  });
});
