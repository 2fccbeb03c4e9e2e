/**
 * A real nginx proxies one loopback port to the app's TCP listener and another
 * to its Unix socket, with and without keep-alive to the upstream.
 * Needs nginx (CI installs it): without it, findNginx fails these tests with the install hint.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNginx, startNginx } from '../../lib/fixture/nginx.js';
import { get, startHttpUpstream } from '../helpers/http-upstream.js';

describe.each([
  { keepalive: false, workers: 1, relativeDir: false },
  { keepalive: true, workers: 2, relativeDir: true },
])('nginx in front of the app, keepalive $keepalive, $workers worker(s), relative config directory $relativeDir', ({ keepalive, workers, relativeDir }) => {
  /** @type {Awaited<ReturnType<typeof startHttpUpstream>>} */
  let app;
  /** @type {import('../../lib/fixture/nginx.js').NginxProcess} */
  let nginx;
  /** @type {string} */
  let resultsDir;

  beforeAll(async () => {
    const binary = findNginx(); // no nginx: fails here, naming --nginx and how to install it
    app = await startHttpUpstream();
    resultsDir = await mkdtemp(join(tmpdir(), 'nginx-test-results-'));
    // a relative directory (sweep --out out) is taken from our working directory, not nginx's
    nginx = await startNginx({ binary, dir: relativeDir ? relative(process.cwd(), resultsDir) : resultsDir, listen: [{ upstream: app.tcp }, { upstream: app.uds }], keepalive, workers });
  });
  afterAll(async () => {
    await nginx?.stop();
    await app?.close();
    if (resultsDir) await rm(resultsDir, { recursive: true, force: true });
  });

  it('listens on two distinct loopback ports, each through its own upstream transport', async () => {
    expect(nginx.ports).toHaveLength(2);
    expect(nginx.ports[0]).not.toBe(nginx.ports[1]);
    expect(await get(nginx.ports[0])).toEqual({ status: 200, body: 'tcp ok' });
    expect(await get(nginx.ports[1])).toEqual({ status: 200, body: 'uds ok' });
  });

  it('keeps its config in the given directory, and its own files in a private one', async () => {
    expect(nginx.configPath).toBe(join(resultsDir, 'nginx.conf'));
    const text = await readFile(nginx.configPath, 'utf8');
    expect(text).toContain(`listen 127.0.0.1:${nginx.ports[0]};`);
    expect(text).toContain(`server unix:${app.uds.path};`);
    expect(text).toContain(`worker_processes ${workers};`);
    expect(text.includes('keepalive 32;')).toBe(keepalive);
    expect(text).toContain(`pid ${nginx.privateDir}/nginx.pid;`);
    expect(nginx.privateDir.startsWith(tmpdir())).toBe(true);
  });

  it(keepalive ? 'reuses HTTP/1.1 connections to the upstream' : 'opens a new HTTP/1.0 upstream connection per request', async () => {
    const before = { ...app.connections };
    const seen = app.requests.length;
    for (let i = 0; i < 10; i++) {
      expect((await get(nginx.ports[i % 2])).status).toBe(200);
    }
    const sent = app.requests.slice(seen);
    expect(sent).toHaveLength(10);
    const opened = app.connections.tcp - before.tcp + app.connections.uds - before.uds;
    if (keepalive) {
      expect(sent.every((r) => r.httpVersion === '1.1' && r.connection === undefined)).toBe(true);
      expect(opened).toBeLessThan(10);
    } else {
      expect(sent.every((r) => r.httpVersion === '1.0' && r.connection === 'close')).toBe(true);
      expect(opened).toBe(10);
    }
  });

  it('has the workers it was asked for, as children of its master', () => {
    const pids = nginx.workerPids();
    expect(pids).toHaveLength(workers);
    expect(pids).not.toContain(nginx.pid);
    expect(nginx.alive()).toBe(true);
  });
});
