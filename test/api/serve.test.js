import { existsSync } from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { UsageError, serve } from 'udsvstcp';
import { usePrivateTmpdir } from '../helpers/temp.js';

usePrivateTmpdir();

/**
 * Send bytes and read as many back.
 * @param {net.NetConnectOpts} where
 * @param {string} text
 */
function echo(where, text) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(where);
    let got = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(text));
    socket.on('data', (chunk) => {
      got += chunk;
      if (got.length >= text.length) socket.end(() => resolve(got));
    });
    socket.on('error', reject);
  });
}

describe("serve() through the package's exports", () => {
  it('starts the echo server on TCP and UDS at once, answers on both, and close() removes its socket file', async () => {
    const server = await serve({ port: 0 });
    const { tcp, uds } = /** @type {any} */ (server.addresses);
    try {
      expect(server.handler).toBe('echo');
      expect(tcp.port).toBeGreaterThan(0);
      expect(await echo({ host: tcp.host, port: tcp.port }, 'over tcp')).toBe('over tcp');
      expect(await echo({ path: uds.path }, 'over uds')).toBe('over uds');
      expect(existsSync(uds.path)).toBe(true);
    } finally {
      await server.close();
    }
    expect(existsSync(uds.path)).toBe(false);
    await expect(echo({ host: tcp.host, port: tcp.port }, 'x')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('refuses a non-loopback host with a UsageError', async () => {
    await expect(serve({ host: '8.8.8.8' })).rejects.toThrow(UsageError);
    await expect(serve({ host: '8.8.8.8' })).rejects.toThrow(/--host must be a loopback address/);
  });
});
