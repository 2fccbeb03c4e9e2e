import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ECHO_GREETING as GREETING } from '../../lib/fixture/handlers.js';
import { startServer } from '../../lib/fixture/server.js';
import { echoBack } from '../helpers/servers.js';

/**
 * Send `data` and collect exactly as many bytes back.
 * @param {net.NetConnectOpts} options
 * @param {Buffer} data
 * @param {number} [extra] bytes expected before the echo
 */
function echoOnce(options, data, extra = 0) {
  return echoBack(net.connect(options), data, extra);
}

describe('echo server on TCP and UDS at once', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('binds 127.0.0.1 on a free port and a socket in a private directory', () => {
    expect(server.tcp.host).toBe('127.0.0.1');
    expect(server.tcp.port).toBeGreaterThan(0);
    expect(server.uds.path).toMatch(/udsvstcp-[^/]+\/echo\.sock$/);
  });

  it('echoes byte-exact to many concurrent clients on both listeners', async () => {
    const jobs = [];
    for (let i = 0; i < 8; i++) {
      const data = randomBytes(1000 + i * 7919);
      const options = i % 2 ? { path: server.uds.path } : { host: server.tcp.host, port: server.tcp.port };
      jobs.push(echoOnce(options, data).then((back) => expect(/** @type {Buffer} */ (back).equals(data)).toBe(true)));
    }
    await Promise.all(jobs);
    const stats = server.stats();
    expect(stats.connections_total).toBeGreaterThanOrEqual(8);
    expect(stats.bytes_in).toBe(stats.bytes_out);
  });

  it('writes the 2014 greeting first when asked', async () => {
    const greeter = await startServer({ greeting: true });
    try {
      const data = Buffer.from('ping');
      const back = /** @type {Buffer} */ (await echoOnce({ path: greeter.uds.path }, data, GREETING.length));
      expect(back.toString()).toBe(`${GREETING}ping`);
    } finally {
      await greeter.close();
    }
  });
});
