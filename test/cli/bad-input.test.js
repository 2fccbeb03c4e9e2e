/**
 * The binary's own wiring of a refusal: exit code 2 and one line on stderr,
 * nothing on stdout, nothing started — once for what main() refuses before
 * anything starts, once for what serve refuses as its server binds. Every
 * other refusal is checked in this process: test/unit/bad-input.test.js and
 * the other test/unit/*-bad-input files, test/integration/server-refusals.test.js.
 */
import { startTcpServer } from '../helpers/servers.js';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLineUsageError, runCli } from '../helpers/cli.js';
import { usePrivateTmpdir } from '../helpers/temp.js';

const tmp = usePrivateTmpdir();

describe('bad input through the binary: exit 2, one line naming the flag, nothing started', () => {
  it('run --size 3', async () => {
    expectOneLineUsageError(await runCli(['run', '--size', '3'], { env: { TMPDIR: tmp.tmpdir } }), /^udsvstcp: error: --size must be a power of two from 1 B to 64 MiB/);
    expect(await readdir(tmp.tmpdir)).toEqual([]);
  });

  it('serve --port in use', async () => {
    const blocker = await startTcpServer(() => {}); // holds the port
    const { port } = blocker.target;
    const dir = join(tmp.dir, 'sockets');
    await mkdir(dir);
    try {
      expectOneLineUsageError(await runCli(['serve', '--port', String(port), '--uds', join(dir, 'p.sock')], { env: { TMPDIR: tmp.tmpdir } }), new RegExp(`^udsvstcp: error: --port ${port} on 127\\.0\\.0\\.1 is in use`));
      expect(await readdir(dir)).toEqual([]);
      expect(await readdir(tmp.tmpdir)).toEqual([]);
    } finally {
      await blocker.close();
    }
  });
});
