/**
 * The connect workload: connect, read the 12-byte greeting, close, looped.
 * A real greeter over TCP and UDS; greeters of our own that say the wrong
 * thing; the message for running out of ephemeral ports and the kernel
 * settings it quotes.
 */
import net from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectEnvironment } from '../../lib/core/environment.js';
import { CONNECT_GREETING, HANDLERS } from '../../lib/fixture/handlers.js';
import { startServer } from '../../lib/fixture/server.js';
import { runTrial } from '../../lib/trial/trial.js';
import { MIN_PER_LOOP, portsExhausted } from '../../lib/workloads/connect.js';
import { useTempDir } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait.js';

/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
const tmp = useTempDir();
beforeAll(async () => {
  server = await startServer({ createServer: () => HANDLERS.greeter({}), name: 'greeter' });
});
afterAll(() => server.close());

/**
 * A connect trial.
 * @param {import('../../lib/client/transport.js').Target[]} targets
 * @param {number} depth
 */
const trial = (targets, depth) => runTrial({
  workload: 'connect', targets, size: CONNECT_GREETING.length, depth,
  measure: { ms: 40 }, warmup: { ms: 10 }, seed: 1, noDelay: true, timeoutMs: 2000, maxMs: 10_000,
}, { probe: { snapshot: async () => server.stats() } });

describe('a connect trial against the greeter', () => {
  it.each([1, 3])('over UDS and TCP, %i loop(s) at once: ok, connections = blocks × block_connections, a connection time per connection', async (depth) => {
    const targets = /** @type {import('../../lib/client/transport.js').Target[]} */ ([{ transport: 'uds', path: server.uds.path }, { transport: 'tcp', ...server.tcp }]);
    const accepted = server.stats().connections_total;
    const { records, blocks } = await trial(targets, depth);
    expect(records.map((r) => [r.workload, r.transport, r.status, r.error])).toEqual([['connect', 'uds', 'ok', ''], ['connect', 'tcp', 'ok', '']]);
    for (const r of records) {
      expect(Number(r.block_connections)).toBeGreaterThanOrEqual(MIN_PER_LOOP * depth);
      expect(r.connections).toBe(Number(r.blocks) * Number(r.block_connections));
      expect(blocks.filter((b) => b.transport === r.transport).map((b) => b.connections)).toEqual(Array(r.blocks).fill(r.block_connections));
      expect(Number(r.connect_p50_us)).toBeGreaterThan(0);
      expect(Number(r.connect_p99_us)).toBeGreaterThanOrEqual(Number(r.connect_p50_us));
      expect(Number(r.conns_per_s)).toBeGreaterThan(0);
      expect(Number(r.server_cpu_us_per_conn)).toBeGreaterThan(0);
    }
    // every measured connection reached the server (warmup ones too)
    expect(server.stats().connections_total - accepted).toBeGreaterThanOrEqual(Number(records[0].connections) + Number(records[1].connections));
    // and every one is closed: the server sees the last closes a moment after the trial ends
    expect(await waitFor(() => server.stats().connections_active === 0, { timeoutMs: 1000 })).toBe(true);
  });
});

/**
 * A greeter of our own, on 127.0.0.1 port 0 and a socket file.
 * @param {(socket: net.Socket) => void} handler
 */
async function startOwnGreeter(handler) {
  const servers = [net.createServer(handler), net.createServer(handler)];
  const path = join(tmp.dir, `g-${Math.random().toString(36).slice(2)}.sock`);
  await new Promise((resolve) => servers[0].listen(0, '127.0.0.1', () => resolve(undefined)));
  await new Promise((resolve) => servers[1].listen(path, () => resolve(undefined)));
  const { port } = /** @type {net.AddressInfo} */ (servers[0].address());
  return {
    targets: /** @type {import('../../lib/client/transport.js').Target[]} */ ([{ transport: 'tcp', host: '127.0.0.1', port }, { transport: 'uds', path }]),
    close: () => Promise.all(servers.map((s) => new Promise((resolve) => s.close(() => resolve(undefined))))),
  };
}

describe('a connect trial against a greeter that says something else', () => {
  it('the wrong 12 bytes: error rows quoting the greeting expected and the one got', async () => {
    const greeter = await startOwnGreeter((socket) => socket.end('Hello world!'));
    try {
      const { records } = await trial(greeter.targets, 1);
      expect(records.map((r) => [r.transport, r.status])).toEqual([['tcp', 'error'], ['uds', 'error']]);
      for (const r of records) expect(r.error).toBe('expected the greeting "Hello there!", got "Hello world!"');
    } finally {
      await greeter.close();
    }
  });

  it('part of the greeting, then close: error rows counting the greeting bytes that came', async () => {
    const greeter = await startOwnGreeter((socket) => socket.end('Hello'));
    try {
      const { records } = await trial(greeter.targets, 1);
      for (const r of records) {
        expect(r.status).toBe('error');
        expect(r.error).toBe('the server closed after 5 of 12 greeting bytes');
      }
    } finally {
      await greeter.close();
    }
  });
});

describe('running out of ephemeral ports', () => {
  it('is told with EADDRNOTAVAIL, the connections made, the port range and tcp_tw_reuse, and what to do', () => {
    const message = portsExhausted(28_231, { ip_local_port_range: '32768-60999', tcp_tw_reuse: 2 });
    expect(message).toContain('EADDRNOTAVAIL');
    expect(message).toContain('after 28231 connections');
    expect(message).toContain('port range 32768-60999');
    expect(message).toContain('net.ipv4.tcp_tw_reuse 2');
    expect(message).toContain('TIME_WAIT');
    expect(message).toMatch(/shorter --duration/);
    expect(message).not.toContain('\n');
    expect(portsExhausted(0, { ip_local_port_range: null, tcp_tw_reuse: null })).toMatch(/port range unknown, net\.ipv4\.tcp_tw_reuse unknown/);
  });

  it('quotes the kernel settings the environment records, numbers but the port range (Linux; null elsewhere)', () => {
    const { net: limits } = collectEnvironment();
    if (process.platform === 'linux') {
      expect(limits.ip_local_port_range).toMatch(/^\d+-\d+$/);
      expect([0, 1, 2]).toContain(limits.tcp_tw_reuse); // numbers, as the sysctls of meta.json's machine
      expect(Number.isInteger(limits.somaxconn)).toBe(true);
    } else {
      expect(limits).toMatchObject({ ip_local_port_range: null, tcp_tw_reuse: null });
    }
  });
});
