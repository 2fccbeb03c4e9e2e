/**
 * A fixture's health check on real servers: alive is not enough. Each
 * workload's server answers its own short probe; a stopped (SIGSTOP)
 * server, which still accepts connections, fails it within the probe's
 * time; a deleted or replaced socket file is named. Needs nginx for proxy.
 */
import { rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFixture } from '../../lib/fixture/fixture.js';
import { probeTarget } from '../../lib/fixture/probe.js';
import { spawnServer } from '../../lib/fixture/server-process.js';
import { getWorkload } from '../../lib/workloads/index.js';

describe('fixture health', () => {
  for (const name of ['echo', 'stream', 'connect', 'http', 'proxy']) {
    it(`${name}: a live server passes; a stopped one fails the probe${name === 'proxy' ? ' through nginx' : ''}, and a forced stop ends it`, async () => {
      const fixture = await startFixture(getWorkload(name));
      try {
        expect(await fixture.check()).toBe(null);
        process.kill(fixture.pid, 'SIGSTOP');
        const why = await fixture.check({ timeoutMs: 300 });
        expect(why).toMatch(new RegExp(`^the ${name === 'proxy' ? 'http' : getWorkload(name).fixture.server} server at (tcp|uds) .*${name === 'proxy' ? 'via 127\\.0\\.0\\.1:\\d+ \\(through nginx\\)' : ''}: no answer to .* within 300 ms$`));
        expect(fixture.alive()).toBe(true); // alive, and unusable
      } finally {
        await fixture.stop({ force: true });
      }
      expect(fixture.alive()).toBe(false);
    }, 20_000);
  }

  it('echo with the 2014 greeting: the probe reads the greeting first, and tells wrong bytes from an echo', async () => {
    const fixture = await startFixture(getWorkload('echo'), { greeting: true });
    try {
      expect(await fixture.check()).toBe(null);
      const tcp = /** @type {import('../../lib/client/transport.js').TcpTarget} */ (fixture.targets.tcp);
      expect(await probeTarget('echo', tcp, { greeting: false })).toBe(`the echo server at tcp ${tcp.host}:${tcp.port}: answered a 4-byte echo with "star"`);
    } finally {
      await fixture.stop();
    }
  });

  it('names the server it probed where nothing listens', async () => {
    const { createServer } = await import('node:net');
    const closed = createServer();
    await new Promise((resolve) => closed.listen(0, '127.0.0.1', () => resolve(undefined)));
    const port = /** @type {import('node:net').AddressInfo} */ (closed.address()).port;
    await new Promise((resolve) => closed.close(resolve)); // a port nothing listens on now
    const tcp = /** @type {const} */ ({ transport: 'tcp', host: '127.0.0.1', port });
    for (const handler of /** @type {const} */ (['sink', 'greeter', 'echo'])) {
      expect(await probeTarget(handler, tcp, { timeoutMs: 1000 })).toMatch(new RegExp(`^the ${handler} server at tcp 127\\.0\\.0\\.1:${port}: .*\\(is the ${handler} server running\\?\\)$`));
    }
  });

  it('names a deleted socket file, and a path replaced by another file, which it leaves alone', async () => {
    const fixture = await startFixture(getWorkload('echo'));
    const path = fixture.targets.uds.transport === 'uds' ? fixture.targets.uds.path : '';
    try {
      await unlink(path);
      expect(await fixture.check()).toBe(`the socket file ${path} was deleted`);
      await writeFile(path, 'not ours');
      expect(await fixture.check()).toBe(`the socket file ${path} was replaced (it is now a regular file)`);
    } finally {
      await fixture.stop();
    }
    await expect(rm(path)).resolves.toBeUndefined(); // still there: not ours to delete
    await rmdir(dirname(path));
  });

  it('stop() ends a stopped (SIGSTOP) server by its SIGTERM, not by the SIGKILL 5 s later', async () => {
    const server = await spawnServer();
    process.kill(server.pid, 'SIGSTOP');
    await server.stop();
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});
