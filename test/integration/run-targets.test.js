/**
 * `run` against servers it did not start (--tcp, --uds): it measures them,
 * leaving their server figures empty, while a message transport's echo is
 * still its own; a target nobody serves fails the trial with exit 1 and one
 * line naming what failed, and a file that is not a socket is left as it
 * was. main() runs in this process; the trial process is real, and so is
 * the server, in this process too; nothing is left running.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../lib/fixture/server.js';
import { callMainLeavingNothing } from '../helpers/in-process.js';
import { useTempDir } from '../helpers/temp.js';

const tmp = useTempDir();

/** @param {string} stdout */
const lines = (stdout) => stdout.trim().split('\n').map((line) => JSON.parse(line));

describe('run against a server that is not ours', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  beforeAll(async () => {
    server = await startServer({ path: join(tmp.dir, 'echo.sock') });
  });
  afterAll(() => server?.close());

  it('measures --tcp and --uds with their server figures empty, and a worker beside them with its own', async () => {
    const { code, stdout, stderr } = await callMainLeavingNothing(['run', '--tcp', `${server.tcp.host}:${server.tcp.port}`, '--uds', server.uds.path, '--transport', 'tcp,uds,worker',
      '--size', '64', '--depth', '1', '--packets', '300', '--warmup', '50', '--json']);
    expect(code, stderr).toBe(0);
    const records = lines(stdout);
    expect(records.map((r) => [r.transport, r.status])).toEqual([['tcp', 'ok'], ['uds', 'ok'], ['worker', 'ok']]);
    for (const r of records.slice(0, 2)) {
      expect(r.server_cpu_us_per_msg, r.transport).toBeNull();
      expect(r.server_elu, r.transport).toBeNull();
    }
    expect(records[2].server_cpu_us_per_msg).toBeGreaterThan(0); // the worker is ours, whoever serves TCP
    expect(stderr).toContain('server not ours');
    // placed is only what run started: the client; the server runs where its owner put it
    expect(stderr).toMatch(/^pin split: client cpu \d+ \(the server is not ours: not placed\), each lane in a process of its own$/m);
    expect(stderr).not.toMatch(/server cpu/);
  });
});

describe('a target nobody serves', () => {
  it('a socket path that is gone: exit 1 with one line naming what failed, and no stack', async () => {
    const path = join(tmp.dir, 'gone.sock');
    const { code, stderr } = await callMainLeavingNothing(['run', '--uds', path, '--packets', '10']);
    expect(code).toBe(1);
    expect(stderr).toContain(`udsvstcp: uds trial failed: cannot connect to uds ${path}: ENOENT (is the echo server running?)`);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('each transport\'s record gives its own cause, and one that did not fail names the lane that did (both said TCP\'s)', async () => {
    const path = join(tmp.dir, 'nobody.sock');
    const both = await callMainLeavingNothing(['run', '--tcp', '127.0.0.1:1', '--uds', path, '--packets', '10', '--json']);
    expect(both.code).toBe(1);
    expect(lines(both.stdout).map((r) => [r.transport, r.error])).toEqual([
      ['tcp', 'cannot connect to tcp 127.0.0.1:1: ECONNREFUSED (is the echo server running?)'],
      ['uds', `cannot connect to uds ${path}: ENOENT (is the echo server running?)`],
    ]);
    const one = await callMainLeavingNothing(['run', '--tcp', '127.0.0.1:1', '--transport', 'tcp,worker', '--packets', '10', '--json']);
    expect(one.code).toBe(1);
    expect(lines(one.stdout).map((r) => [r.transport, r.error])).toEqual([
      ['tcp', 'cannot connect to tcp 127.0.0.1:1: ECONNREFUSED (is the echo server running?)'],
      ['worker', 'not measured: the tcp lane failed: cannot connect to tcp 127.0.0.1:1: ECONNREFUSED (is the echo server running?)'],
    ]);
  });

  it('a regular file as --uds: exit 1, and the file is left untouched', async () => {
    const file = join(tmp.dir, 'data.bin');
    await writeFile(file, 'precious');
    const { code, stderr } = await callMainLeavingNothing(['run', '--uds', file, '--packets', '10']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/uds trial failed: cannot connect to uds .*data\.bin: ECONNREFUSED/);
    expect(await readFile(file, 'utf8')).toBe('precious');
  });
});
