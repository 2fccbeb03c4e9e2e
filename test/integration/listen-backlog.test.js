/**
 * The server's listen backlog follows the connections a trial opens at once.
 * A Unix socket's connect() fails at once with EAGAIN when the accept queue
 * is full (loopback TCP's waits for a SYN retry instead), so with Node's
 * default backlog of 511, nginx's burst of upstream connects at 1024 proxy
 * connections got EAGAIN and answered 502 (issue 21, defect 2). A server
 * process that is stopped (SIGSTOP) accepts nothing: a burst of N connects
 * at once then lands in the queue whole, or fails, as the backlog says.
 * Real server processes, nginx and sockets. Needs nginx (CI installs it).
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NODE_BACKLOG, listenBacklog } from '../../lib/core/backlog.js';
import { readNetLimits } from '../../lib/core/environment.js';
import { startFixture } from '../../lib/fixture/fixture.js';
import { spawnServer } from '../../lib/fixture/server-process.js';
import { runTrial } from '../../lib/trial/trial.js';
import { proxyWorkload } from '../../lib/workloads/http.js';

/** @type {(() => Promise<void>)[]} */
let cleanups = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

/**
 * Open `n` connections to a socket path at once; each either connects or fails with a code.
 * @param {string} path
 * @param {number} n
 * @returns {Promise<{ connected: number, failed: Record<string, number> }>}
 */
async function burst(path, n) {
  /** @type {net.Socket[]} */
  const sockets = [];
  const outcomes = await Promise.all(Array.from({ length: n }, () => new Promise((resolve) => {
    const socket = net.connect({ path });
    sockets.push(socket);
    socket.once('connect', () => resolve('connected'));
    socket.once('error', (error) => resolve(/** @type {NodeJS.ErrnoException} */ (error).code ?? error.message));
  })));
  for (const socket of sockets) socket.destroy();
  /** @type {Record<string, number>} */
  const failed = {};
  for (const outcome of outcomes) if (outcome !== 'connected') failed[String(outcome)] = (failed[String(outcome)] ?? 0) + 1;
  return { connected: outcomes.filter((o) => o === 'connected').length, failed };
}

/**
 * A server process that does not accept: stopped until the cleanup continues and stops it.
 * @param {number | undefined} backlog
 */
async function stoppedServer(backlog) {
  const server = await spawnServer({ backlog });
  cleanups.push(async () => {
    process.kill(server.pid, 'SIGCONT');
    await server.stop();
  });
  process.kill(server.pid, 'SIGSTOP');
  return server;
}

describe('listen backlog', () => {
  it('the backlog is at least Node\'s default and follows the connections a trial opens at once', () => {
    expect(listenBacklog()).toBe(NODE_BACKLOG);
    expect(listenBacklog(10)).toBe(511);
    expect(listenBacklog(1024)).toBe(1024);
  });

  it('a UDS server started with backlog N takes a burst of N connects while it accepts none, file and abstract socket alike', async () => {
    const n = 1024;
    const somaxconn = readNetLimits().somaxconn;
    if (somaxconn !== null && somaxconn < n) throw new Error(`net.core.somaxconn is ${somaxconn} here: it caps any backlog below the ${n} this test needs`);
    const server = await stoppedServer(n);
    const paths = [server.uds.path, ...(server.addresses['uds-abstract'] ? [/** @type {{ path: string }} */ (server.addresses['uds-abstract']).path] : [])];
    for (const path of paths) {
      const { connected, failed } = await burst(path, n);
      expect(failed, path).toEqual({});
      expect(connected).toBe(n);
    }
  });

  it('with Node\'s default backlog the same burst fails at once with EAGAIN past the queue (why the backlog must follow)', async () => {
    const server = await stoppedServer(undefined);
    const { connected, failed } = await burst(server.uds.path, 1024);
    expect(Object.keys(failed)).toEqual(['EAGAIN']);
    expect(connected).toBeLessThanOrEqual(NODE_BACKLOG + 1); // Linux queues backlog + 1
    expect(connected + failed.EAGAIN).toBe(1024);
  });

  it('the proxy workload with 1024 connections over UDS: every request answered, no EAGAIN in nginx\'s log', async () => {
    const fixture = await startFixture(proxyWorkload, { connections: 1024 });
    cleanups.push(() => fixture.stop());
    const mark = /** @type {NonNullable<typeof fixture.nginxLog>} */ (fixture.nginxLog).mark();
    // one block of a request per connection, all at once, a new upstream connection for each: a burst of up to 1024 upstream connects
    const result = await runTrial({
      workload: 'proxy', targets: [fixture.targets.uds], size: 64, depth: 1024,
      measure: { packets: 1024 }, warmup: { packets: 0 }, seed: 1, noDelay: true, timeoutMs: 10_000,
    }, { probe: fixture });
    expect(result.records.map((r) => [r.status, r.error])).toEqual([['ok', '']]);
    expect(result.records[0].requests).toBe(1024);
    expect(fixture.nginxLog?.problem(mark) ?? '').not.toMatch(/Resource temporarily unavailable/);
  });
});
