/**
 * The server listens on a Linux abstract socket beside TCP and UDS: a name,
 * no file; a client reaches it through its transport's declaration.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { connect } from '../../lib/client/transport.js';
import { startServer } from '../../lib/fixture/server.js';
import { echoBack } from '../helpers/servers.js';

describe.skipIf(process.platform !== 'linux')('echo server on an abstract socket', () => {
  it('binds \\0udsvstcp-<random>, echoes byte-exact, and leaves nothing behind when closed', async () => {
    const server = await startServer();
    const address = /** @type {{ path: string }} */ (server.addresses['uds-abstract']);
    expect(address.path).toMatch(/^\0udsvstcp-[0-9a-f]{16}$/);
    expect(Object.keys(server.addresses)).toEqual(['tcp', 'uds', 'uds-abstract']);
    /** @type {import('../../lib/client/transport.js').Target} */
    const target = { transport: 'uds-abstract', path: address.path };
    const socket = await connect(target);
    const data = randomBytes(5000);
    const back = await echoBack(socket, data);
    expect(back.equals(data)).toBe(true);
    socket.destroy();
    await server.close();
    await expect(connect(target, { timeoutMs: 2000 })).rejects.toThrow(/cannot connect to uds-abstract @udsvstcp-[0-9a-f]{16}: ECONNREFUSED/);
  });

  it('gives each server its own name', async () => {
    const [a, b] = await Promise.all([startServer(), startServer()]);
    try {
      expect(a.addresses['uds-abstract']).not.toEqual(b.addresses['uds-abstract']);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
