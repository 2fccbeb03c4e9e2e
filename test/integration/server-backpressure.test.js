import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer } from '../../lib/fixture/server-process.js';

describe('echo server under a client that sends but never reads', () => {
  /** @type {import('../../lib/fixture/server-process.js').ServerProcess} */
  let server;
  beforeAll(async () => {
    server = await spawnServer();
  });
  afterAll(() => server.stop());

  it.each(['tcp', 'uds'])('stops reading instead of buffering without bound (%s)', async (transport) => {
    const socket = transport === 'tcp' ? net.connect(server.tcp.port, server.tcp.host) : net.connect(server.uds.path);
    socket.pause(); // never read the echo
    await new Promise((resolve) => socket.once('connect', resolve));
    const chunk = Buffer.alloc(64 * 1024, 7);
    const total = 64 * 1024 * 1024;
    let written = 0;
    // write until our own buffer backs up or 64 MiB are handed over
    while (written < total) {
      written += chunk.length;
      if (!socket.write(chunk)) {
        const drained = await Promise.race([
          new Promise((resolve) => socket.once('drain', () => resolve(true))),
          new Promise((resolve) => setTimeout(() => resolve(false), 500)),
        ]);
        if (!drained) break;
      }
    }
    const stats = await server.snapshot();
    // the kernel holds some bytes both ways; the server's user-space queue stays small
    expect(stats.buffered_bytes).toBeLessThan(4 * 1024 * 1024);
    expect(stats.bytes_in).toBeLessThan(total);
    expect(socket.writableLength).toBeGreaterThan(0);
    socket.destroy();
  });
});
