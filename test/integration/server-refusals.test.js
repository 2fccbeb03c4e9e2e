/**
 * What the server fixture refuses once it binds, as `udsvstcp serve` says it
 * (exit 2: a UsageError naming the flag or TMPDIR): a port in use, a socket
 * path in a directory that does not exist, a --host this machine does not
 * have, a TMPDIR too long for its socket path. Each leaves nothing behind:
 * no listener, no file, no directory. A path that is not a socket:
 * test/cli/server-socket-file.test.js; the binary's wiring of the same:
 * test/cli/bad-input.test.js.
 */
import { startTcpServer } from '../helpers/servers.js';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../lib/core/errors.js';
import { startServer } from '../../lib/fixture/server.js';
import { usePrivateTmpdir } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';

const tmp = usePrivateTmpdir();

/**
 * startServer(options) fails with a UsageError (exit code 2) whose message is `message` (or matches it).
 * @param {Parameters<typeof startServer>[0]} options
 * @param {RegExp | string} message
 */
async function expectRefused(options, message) {
  const error = await startServer(options).then(() => null, (e) => e);
  expect(error).toBeInstanceOf(UsageError);
  expect(error.exitCode).toBe(2);
  if (typeof message === 'string') expect(error.message).toBe(message);
  else expect(error.message).toMatch(message);
  expect(await noListener(), 'a listener was left open').toBe(true);
}

/** Every listener this process opened is closed (closing ends a moment after the refusal). */
const noListener = () => waitFor(() => !process.getActiveResourcesInfo().some((t) => /Server/.test(t)), { timeoutMs: 2000 });

describe('the server refuses, naming the flag, and leaves nothing', () => {
  it('--port in use', async () => {
    const blocker = await startTcpServer(() => {}); // holds the port
    const { port } = blocker.target;
    const dir = join(tmp.dir, 'sockets');
    await mkdir(dir);
    try {
      const error = await startServer({ port, path: join(dir, 'p.sock') }).then(() => null, (e) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toBe(`--port ${port} on 127.0.0.1 is in use (use another port, or 0 for any free port)`);
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await blocker.close();
    }
    expect(await noListener(), 'a listener was left open').toBe(true);
  });

  it('--uds in a directory that does not exist', async () => {
    const path = join(tmp.dir, 'missing-dir', 'x.sock');
    await expectRefused({ path }, `--uds ${path}: the directory ${join(tmp.dir, 'missing-dir')} does not exist; give a socket path in an existing directory`);
  });

  it('--host with an address this machine does not have', async () => {
    const dir = join(tmp.dir, 'sockets');
    await mkdir(dir);
    await expectRefused({ host: '8.8.8.8', path: join(dir, 'x.sock') }, /^--host 8\.8\.8\.8 is not an address of this machine \(EADDRNOTAVAIL\)/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('a TMPDIR whose socket path would be truncated, giving TMPDIR\'s length and the socket path\'s', async () => {
    const long = join(tmp.dir, 'd'.repeat(90));
    await mkdir(long);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = long;
    try {
      // TMPDIR's own length, then the longest path bound in it, and how long TMPDIR may be
      const bytes = Buffer.byteLength(long);
      const limit = process.platform === 'darwin' ? 103 : 107;
      const longest = join(long, 'udsvstcp-XXXXXX', '.uXXXXXX', 's');
      await expectRefused({}, `TMPDIR ${long} is ${bytes} bytes long: the socket udsvstcp binds in it, ${longest}, would be ${bytes + 27} bytes, over the limit of ${limit} bytes on ${process.platform}; set TMPDIR to a directory of at most ${limit - 27} bytes`);
    } finally {
      process.env.TMPDIR = saved;
    }
    expect(await readdir(long)).toEqual([]);
  });
});
