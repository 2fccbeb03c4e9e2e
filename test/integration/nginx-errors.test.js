/**
 * nginx that cannot be found or cannot start: a one-line typed error, and
 * nothing left running or on disk. Needs nginx (CI installs it).
 */
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunError, UsageError } from '../../lib/core/errors.js';
import { findNginx, startNginx } from '../../lib/fixture/nginx.js';
import { startHttpUpstream } from '../helpers/http-upstream.js';
import { processesMentioning } from '../helpers/processes.js';

const HINT = 'install it (Debian/Ubuntu: apt-get install nginx) or give --nginx PATH';


/**
 * The error `promise` rejects with.
 * @param {Promise<unknown>} promise
 * @returns {Promise<any>}
 */
async function failure(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('findNginx', () => {
  /** @type {string} */
  let dir;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nginx-test-find-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('finds nginx on PATH or in /usr/sbin (this machine needs it: apt-get install nginx)', () => {
    expect(findNginx()).toMatch(/\/nginx$/);
  });

  it('without nginx: a UsageError (exit 2) saying how to install it or name it with --nginx', () => {
    const call = () => findNginx(undefined, [dir]);
    expect(call).toThrow(UsageError);
    expect(call).toThrow(`proxy workload needs nginx: not found on PATH or in /usr/sbin; ${HINT}`);
    try {
      call();
    } catch (error) {
      expect(error).toMatchObject({ exitCode: 2, code: 'ERR_NO_NGINX' });
    }
  });

  it('a --nginx that is missing, a directory or not executable: a UsageError naming --nginx', async () => {
    const plain = join(dir, 'plain');
    await writeFile(plain, '');
    for (const path of [join(dir, 'missing'), dir, plain]) {
      expect(() => findNginx(path)).toThrow(UsageError);
      expect(() => findNginx(path)).toThrow(`--nginx ${path}: not an executable file; ${HINT}`);
    }
  });
});

describe('startNginx failures', () => {
  const originalTmp = process.env.TMPDIR;
  /** @type {string} */
  let tmp;
  /** @type {string} */
  let binary;
  /** @type {Awaited<ReturnType<typeof startHttpUpstream>>} */
  let app;

  beforeAll(async () => {
    binary = findNginx(); // no nginx: fails here, naming --nginx and how to install it
    app = await startHttpUpstream();
    // a TMPDIR of our own: nginx's private directories go here, so we can see that none is left
    tmp = await mkdtemp(join(tmpdir(), 'nginx-test-tmp-'));
    process.env.TMPDIR = tmp;
  });
  afterAll(async () => {
    if (originalTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = originalTmp;
    await app?.close();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  /** Nothing of nginx running or left in our TMPDIR. */
  async function expectNothingLeft() {
    expect(await readdir(tmp)).toEqual([]);
    expect(processesMentioning(tmp)).toEqual([]);
  }

  it('a port already taken: a one-line RunError with nginx\'s own words', async () => {
    const taker = net.createServer();
    await new Promise((resolve) => taker.listen(0, '127.0.0.1', () => resolve(undefined)));
    const { port } = /** @type {net.AddressInfo} */ (taker.address());
    try {
      const started = Date.now();
      const error = await failure(startNginx({ binary, listen: [{ upstream: app.tcp }, { port, upstream: app.uds }] }));
      expect(Date.now() - started).toBeLessThan(2000); // not after nginx's own 2.5 s of bind() retries (its guard, a Node process, starts first)
      expect(error).toBeInstanceOf(RunError);
      expect(error.code).toBe('ERR_IN_USE');
      expect(error.message).toBe(`nginx failed to start: [emerg] bind() to 127.0.0.1:${port} failed (98: Address already in use)`);
      expect(error.message).not.toContain('\n');
    } finally {
      taker.close();
    }
    await expectNothingLeft();
  });

  it('an upstream that does not answer: fails within startTimeoutMs, with the error log\'s last line', async () => {
    const gone = { transport: /** @type {const} */ ('uds'), path: join(tmp, 'nobody-here.sock') };
    const started = Date.now();
    const error = await failure(startNginx({ binary, listen: [{ upstream: gone }], startTimeoutMs: 300 }));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(error).toBeInstanceOf(RunError);
    expect(error.code).toBe('ERR_NGINX_START');
    expect(error.message).toMatch(/^nginx did not answer GET \/ with 2xx on 127\.0\.0\.1:\d+ within 300 ms \(last: HTTP 502; error log: \[\w+\] connect\(\) to unix:.*nobody-here\.sock failed/);
    expect(error.message).not.toContain('\n');
    await expectNothingLeft();
  });

  it('an nginx that exits at once: a RunError with its last words', async () => {
    const bin = await mkdtemp(join(originalTmp ?? '/tmp', 'nginx-test-bin-'));
    try {
      const fake = join(bin, 'nginx');
      await writeFile(fake, '#!/bin/sh\necho "nginx: [emerg] first line" >&2\necho "nginx: [emerg] something is wrong" >&2\nexit 1\n');
      await chmod(fake, 0o755);
      const error = await failure(startNginx({ binary: fake, listen: [{ upstream: app.tcp }] }));
      expect(error).toBeInstanceOf(RunError);
      expect(error.message).toBe('nginx exited (code 1) before answering: nginx: [emerg] something is wrong');
    } finally {
      await rm(bin, { recursive: true, force: true });
    }
    await expectNothingLeft();
  });

  it('a config directory that does not exist: a RunError naming the file', async () => {
    const dir = join(tmp, 'no', 'such');
    const error = await failure(startNginx({ binary, dir, listen: [{ upstream: app.tcp }] }));
    expect(error).toBeInstanceOf(RunError);
    expect(error.message).toMatch(/^cannot write the nginx config .*\/no\/such\/nginx\.conf: /);
    await expectNothingLeft();
  });

  it('bad options: a UsageError before anything is created', async () => {
    await mkdir(tmp, { recursive: true });
    const error = await failure(startNginx({ binary, listen: [{ upstream: app.tcp }], workers: 0 }));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(/workers must be an integer/);
    await expectNothingLeft();
  });
});
