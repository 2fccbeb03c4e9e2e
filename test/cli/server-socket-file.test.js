import { spawn } from 'node:child_process';
import { lstat, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../lib/core/errors.js';
import { startServer } from '../../lib/fixture/server.js';
import { MAX_SOCKET_PATH_BYTES } from '../../lib/fixture/socket-file.js';
import { makeTempDir } from '../helpers/cli.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => tmp.remove());

/** A socket file nobody answers on: what a SIGKILLed server leaves behind. */
async function staleSocket(/** @type {string} */ path) {
  const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  expect((await lstat(path)).isSocket()).toBe(true);
}

describe('socket file handling', () => {
  it('replaces a stale socket nobody answers on', async () => {
    const path = join(tmp.dir, 'stale.sock');
    await staleSocket(path);
    const server = await startServer({ path });
    try {
      expect(server.uds.path).toBe(path);
    } finally {
      await server.close();
    }
  });

  it('refuses a socket a live server answers on', async () => {
    const path = join(tmp.dir, 'live.sock');
    const live = await startServer({ path });
    try {
      await expect(startServer({ path })).rejects.toThrow(/in use/);
      expect((await lstat(path)).isSocket()).toBe(true);
    } finally {
      await live.close();
    }
  });

  it('never touches a regular file, a directory or a symlink', async () => {
    const file = join(tmp.dir, 'data.txt');
    await writeFile(file, 'precious');
    await expect(startServer({ path: file })).rejects.toThrow(UsageError);
    expect(await readFile(file, 'utf8')).toBe('precious');

    const dir = join(tmp.dir, 'adir');
    await mkdir(dir);
    await expect(startServer({ path: dir })).rejects.toThrow(/is a directory/);
    expect((await lstat(dir)).isDirectory()).toBe(true);

    const link = join(tmp.dir, 'link.sock');
    await symlink(file, link);
    await expect(startServer({ path: link })).rejects.toThrow(/symbolic link/);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readFile(file, 'utf8')).toBe('precious');
  });

  it('refuses a path over the platform limit, naming the limit', async () => {
    const path = join(tmp.dir, `${'x'.repeat(MAX_SOCKET_PATH_BYTES)}.sock`);
    await expect(startServer({ path })).rejects.toThrow(new RegExp(`limit on ${process.platform} is ${MAX_SOCKET_PATH_BYTES} bytes`));
  });

  it('removes its socket file on close, and its private directory', async () => {
    const server = await startServer();
    const path = server.uds.path;
    await server.close();
    await expect(lstat(path)).rejects.toThrow(/ENOENT/);
    await expect(lstat(join(path, '..'))).rejects.toThrow(/ENOENT/);
  });
});
