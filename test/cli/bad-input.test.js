import net from 'node:net';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, runCli, expectOneLineUsageError } from '../helpers/cli.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => tmp.remove());

/**
 * A usage error: exit 2, one line on stderr naming the flag, nothing on stdout, nothing started.
 * @param {string[]} args
 * @param {RegExp} message
 */
async function expectUsageError(args, message) {
  const result = await runCli(args);
  expectOneLineUsageError(result, message);
}

describe('bad input: one line naming the flag and range, exit 2, nothing started', () => {
  it.each(['0', '3', '-1', '1.5', 'abc', '128MiB'])('run --size=%s', async (size) => {
    await expectUsageError(['run', `--size=${size}`], /--size must be a power of two from 1 B to 64 MiB/);
  });

  it.each(['0', '65537', 'x'])('run --depth=%s', async (depth) => {
    await expectUsageError(['run', `--depth=${depth}`], /--depth must be a whole number from 1 to 65536/);
  });

  it('run: size × depth over 256 MiB in flight', async () => {
    await expectUsageError(['run', '--size', '64MiB', '--depth', '8'], /size × depth must be at most 256 MiB in flight; got 64 MiB × 8 = 512 MiB/);
  });

  it('run --packets 0', async () => {
    await expectUsageError(['run', '--packets', '0'], /--packets must be a whole number from 1 to 20000000/);
  });

  it('run with both --packets and --duration', async () => {
    await expectUsageError(['run', '--packets', '10', '--duration', '1s'], /--packets and --duration exclude each other/);
  });

  it('run --transport udp', async () => {
    await expectUsageError(['run', '--transport', 'udp'], /--transport must be one of tcp, uds, uds-abstract, ipc-json, ipc-advanced, worker, or a list of them \(tcp,uds,uds-abstract; both is tcp,uds\); got "udp"/);
  });

  it.each(['127.0.0.1:0', '127.0.0.1:70000', 'nohost', '10.0.0.1:80'])('run --tcp %s', async (target) => {
    await expectUsageError(['run', '--tcp', target], /--tcp/);
  });

  it('run --uds with a path over the platform limit', async () => {
    await expectUsageError(['run', '--uds', `/tmp/${'x'.repeat(120)}`], /--uds path is 125 bytes; the limit on \w+ is 10[37] bytes/);
  });

  it('run --transport tcp with only --uds given', async () => {
    await expectUsageError(['run', '--transport', 'tcp', '--uds', join(tmp.dir, 'a.sock')], /--transport tcp needs --tcp HOST:PORT/);
  });

  it('an unknown option', async () => {
    await expectUsageError(['run', '--sise', '64'], /unknown option '--sise'/);
  });

  it.each(['-1', '65536', 'http'])('serve --port=%s', async (port) => {
    await expectUsageError(['serve', `--port=${port}`], /--port must be a whole number from 0 to 65535/);
  });

  it('serve --port in use', async () => {
    const blocker = net.createServer();
    await new Promise((resolve) => blocker.listen(0, '127.0.0.1', () => resolve(undefined)));
    const { port } = /** @type {net.AddressInfo} */ (blocker.address());
    try {
      await expectUsageError(['serve', '--port', String(port), '--uds', join(tmp.dir, 'p.sock')], new RegExp(`--port ${port} on 127.0.0.1 is in use`));
      expect(await readdir(tmp.dir)).toEqual([]);
    } finally {
      blocker.close();
    }
  });

  it('serve --uds on a regular file refuses and leaves it untouched', async () => {
    const file = join(tmp.dir, 'notes.txt');
    await writeFile(file, 'keep me');
    await expectUsageError(['serve', '--uds', file], /--uds .*notes\.txt exists and is not a socket; refusing to replace it/);
    expect(await readFile(file, 'utf8')).toBe('keep me');
  });

  it('serve --uds with a path over the platform limit', async () => {
    await expectUsageError(['serve', '--uds', join(tmp.dir, 'y'.repeat(110))], /the limit on \w+ is 10[37] bytes/);
  });

  it('prints a stack trace only with --debug', async () => {
    const { code, stderr } = await runCli(['--debug', 'run', '--size', '3']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/\n\s+at /);
  });
});

describe('run against a regular file as --uds', () => {
  it('fails the run (exit 1) and leaves the file untouched', async () => {
    const file = join(tmp.dir, 'data.bin');
    await writeFile(file, 'precious');
    const { code, stderr } = await runCli(['run', '--uds', file, '--packets', '10']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/uds trial failed: cannot connect to uds .*data\.bin: ECONNREFUSED/);
    expect(await readFile(file, 'utf8')).toBe('precious');
  });
});
