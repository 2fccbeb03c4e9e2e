import net from 'node:net';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, startServeCli } from '../helpers/cli.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => tmp.remove());

/**
 * What `nc -U PATH` does: type a line, read it back.
 * @param {string} path
 * @param {string} text
 */
function typeLine(path, text) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ path });
    let back = '';
    socket.setEncoding('utf8');
    socket.on('error', reject);
    socket.on('data', (t) => {
      back += t;
      if (back.length >= text.length) {
        socket.end();
        resolve(back);
      }
    });
    socket.write(text);
  });
}

describe('udsvstcp serve', () => {
  it.each(['SIGTERM', 'SIGINT'])('prints one JSON line, echoes on both listeners, and on %s removes its socket and exits 0', async (signal) => {
    const path = join(tmp.dir, 'echo.sock');
    const serve = startServeCli(['--uds', path]);
    const info = await serve.ready;
    // on Linux an abstract socket too: a NUL-led name, no file
    const abstract = process.platform === 'linux' ? { 'uds-abstract': { path: expect.stringMatching(/^\0udsvstcp-[0-9a-f]{16}$/) } } : {};
    expect(info).toEqual({ tcp: { host: '127.0.0.1', port: expect.any(Number) }, uds: { path }, ...abstract });
    expect(await typeLine(path, 'hello over uds\n')).toBe('hello over uds\n');
    const more = /** @type {Record<string, { path: string }>} */ (/** @type {unknown} */ (info));
    if (more['uds-abstract']) expect(await typeLine(more['uds-abstract'].path, 'hello over an abstract socket\n')).toBe('hello over an abstract socket\n');
    const viaTcp = await new Promise((resolve) => {
      const s = net.connect(info.tcp.port, info.tcp.host, () => s.write('tcp'));
      s.setEncoding('utf8').once('data', (t) => { s.end(); resolve(t); });
    });
    expect(viaTcp).toBe('tcp');
    expect((await lstat(path)).isSocket()).toBe(true);

    serve.child.kill(/** @type {NodeJS.Signals} */ (signal));
    expect(await serve.exited).toEqual({ code: 0, signal: null });
    await expect(lstat(path)).rejects.toThrow(/ENOENT/);
    expect(serve.stderr()).toContain(`stopped (${signal})`);
  });

  it('closes open connections when stopped', async () => {
    const serve = startServeCli(['--uds', join(tmp.dir, 's.sock')]);
    const info = await serve.ready;
    const socket = net.connect(info.uds);
    await new Promise((resolve) => socket.once('connect', resolve));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.on('error', () => {});
    serve.child.kill('SIGTERM');
    await closed;
    expect((await serve.exited).code).toBe(0);
  });
});
