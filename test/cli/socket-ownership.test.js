import net from 'node:net';
import { lstat, readFile, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer } from '../../lib/fixture/server.js';
import { spawnServer } from '../../lib/fixture/server-process.js';
import { makeTempDir, startServeCli } from '../helpers/cli.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => tmp.remove());

/** @param {string} path */
function echoOnce(path) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ path }, () => socket.write('ping'));
    socket.setEncoding('utf8').once('data', (text) => { socket.end(); resolve(text); });
    socket.once('error', reject);
  });
}

describe('a server removes only the socket it bound', () => {
  it('leaves a second server\'s live socket alone when the first stops, and says so', async () => {
    const path = join(tmp.dir, 'x.sock');
    const first = startServeCli(['--uds', path]);
    await first.ready;
    await unlink(path); // someone removes X and starts another server there
    const second = startServeCli(['--uds', path]);
    await second.ready;

    first.child.kill('SIGINT');
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(first.stderr()).toContain(`${path} was replaced while serving (it is now another socket); left it alone`);
    expect(await echoOnce(path)).toBe('ping'); // the second server still answers on X

    second.child.kill('SIGINT');
    expect((await second.exited).code).toBe(0);
    expect(second.stderr()).toContain(`removed ${path}`);
    expect(await readdir(tmp.dir)).toEqual([]); // nothing left beside it either
  });

  it('leaves a regular file written at its path alone', async () => {
    const path = join(tmp.dir, 'x.sock');
    const server = startServeCli(['--uds', path]);
    await server.ready;
    await unlink(path);
    await writeFile(path, 'precious');
    server.child.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
    expect(server.stderr()).toContain('(it is now a regular file); left it alone');
    expect(await readFile(path, 'utf8')).toBe('precious');
    expect(await readdir(tmp.dir)).toEqual(['x.sock']);
  });

  it('removes its socket and private directory after SIGHUP', async () => {
    const server = startServeCli([], { TMPDIR: tmp.dir });
    const { uds } = await server.ready;
    expect(dirname(uds.path)).toMatch(new RegExp(`^${tmp.dir}/udsvstcp-`));
    server.child.kill('SIGHUP');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toContain(`stopped (SIGHUP); removed ${uds.path}`);
    expect(await readdir(tmp.dir)).toEqual([]);
  });

  it('a serve SIGKILLed by hand leaves a stale socket, which the next serve on that path replaces', async () => {
    const path = join(tmp.dir, 'x.sock');
    const killed = startServeCli(['--uds', path]);
    await killed.ready;
    killed.child.kill('SIGKILL');
    await killed.exited;
    const left = (await readdir(tmp.dir)).sort();
    expect(left).toEqual([expect.stringMatching(/^\.udsvstcp-\w{6}$/), 'x.sock']); // an empty staging directory stays beside it
    const next = startServeCli(['--uds', path]);
    await next.ready;
    expect(await echoOnce(path)).toBe('ping');
    next.child.kill('SIGINT');
    expect((await next.exited).code).toBe(0);
    expect(await readdir(tmp.dir)).toEqual([left[0]]);
  });

  it('removes its own directories only when empty', async () => {
    const server = await startServer();
    const dir = dirname(server.uds.path);
    await writeFile(join(dir, 'someone-elses.txt'), 'keep');
    expect(await server.close()).toEqual({ socket: 'removed', detail: `removed ${server.uds.path}`, left: [dir] });
    expect(await readdir(dir)).toEqual(['someone-elses.txt']);
    await rm(dir, { recursive: true });
  });

  it('a parent removes what its server left when the server is SIGKILLed', async () => {
    const server = await spawnServer({ env: { TMPDIR: tmp.dir } });
    expect((await lstat(server.uds.path)).isSocket()).toBe(true);
    process.kill(server.pid, 'SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    expect(await server.cleaned).toMatchObject({ socket: 'removed', left: [] });
    expect(await readdir(tmp.dir)).toEqual([]);
  });
});
