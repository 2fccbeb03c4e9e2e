/**
 * A workload's fixture, as its declaration says: the server process (echo,
 * sink, greeter or HTTP), and for the proxy workload a real nginx in front
 * of it. It gives the trials their targets and reads the servers' CPU at
 * block boundaries: the server over its control channel, nginx from /proc.
 */
import { findNginx, startNginx } from './nginx.js';
import { spawnServer } from './server-process.js';

/**
 * @typedef {object} Fixture
 * @property {Record<'tcp' | 'uds', import('./transport.js').Target>} targets what the client connects to, by the transport measured
 * @property {number} pid the server's
 * @property {string} describe one line for people
 * @property {() => Promise<import('./server-stats.js').ServerStats>} snapshot
 * @property {() => boolean} alive
 * @property {() => Promise<void>} stop
 * @property {() => void} kill
 * @property {string | null} nginxConfig where the nginx config was written
 */

/**
 * @param {import('./workloads/workload.js').Workload} workload
 * @param {object} options
 * @param {boolean} [options.greeting]
 * @param {boolean} [options.noDelay]
 * @param {string[]} [options.prefix] e.g. taskset for the server
 * @param {string | null} [options.nginx] the nginx binary (proxy)
 * @param {boolean} [options.keepalive] nginx keeps upstream connections alive (proxy)
 * @param {string} [options.configDir] where the nginx config is written (default: its private directory)
 * @returns {Promise<Fixture>}
 */
export async function startFixture(workload, { greeting = false, noDelay = true, prefix = [], nginx = null, keepalive = false, configDir } = {}) {
  const { server: handler, proxy } = workload.fixture;
  const binary = proxy ? findNginx(nginx ?? undefined) : undefined; // before anything starts
  const server = await spawnServer({ handler, greeting, noDelay, prefix });
  const direct = {
    tcp: /** @type {import('./transport.js').Target} */ ({ transport: 'tcp', ...server.tcp }),
    uds: /** @type {import('./transport.js').Target} */ ({ transport: 'uds', path: server.uds.path }),
  };
  if (!binary) {
    return {
      targets: direct,
      pid: server.pid,
      describe: `${handler} server pid ${server.pid}: tcp ${server.tcp.host}:${server.tcp.port}, uds ${server.uds.path}`,
      snapshot: () => server.snapshot(),
      alive: () => server.alive(),
      stop: () => server.stop(),
      kill: () => server.kill(),
      nginxConfig: null,
    };
  }
  let front;
  try {
    front = await startNginx({ binary, dir: configDir, keepalive, listen: [{ upstream: direct.tcp }, { upstream: direct.uds }] });
  } catch (error) {
    await server.stop();
    throw error;
  }
  const nginxPid = front.pid;
  const via = (/** @type {number} */ port) => ({ host: '127.0.0.1', port });
  return {
    targets: {
      tcp: { ...direct.tcp, via: via(front.ports[0]) },
      uds: { ...direct.uds, via: via(front.ports[1]) },
    },
    pid: server.pid,
    describe: `nginx pid ${nginxPid} (${keepalive ? 'keep-alive' : 'a new'} upstream connection${keepalive ? 's' : ' per request'}): 127.0.0.1:${front.ports[0]} → tcp ${server.tcp.host}:${server.tcp.port}, 127.0.0.1:${front.ports[1]} → uds ${server.uds.path}; ${handler} server pid ${server.pid}`,
    snapshot: async () => {
      const stats = await server.snapshot();
      const cpu = front.cpuSeconds(); // master and workers, from /proc (10 ms ticks)
      return { ...stats, proxy_cpu: { user: cpu.user * 1e6, system: cpu.system * 1e6 } };
    },
    alive: () => server.alive() && front.alive(),
    stop: async () => {
      await front.stop();
      await server.stop();
    },
    kill: () => {
      server.kill();
      front.stop().catch(() => {});
    },
    nginxConfig: front.configPath,
  };
}
