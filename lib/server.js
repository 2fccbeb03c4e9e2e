/**
 * The echo server: one echo handler, two listeners (TCP and UDS) at once.
 * This and transport.js are the only modules that know TCP from UDS.
 */
import net from 'node:net';
import { rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { UsageError } from './errors.js';
import { checkSocketPath, createPrivateDir, listenOwned, prepareSocketPath, releaseSocket } from './socket-file.js';

/** What the 2014 server wrote on each connection before echoing. */
export const GREETING = 'start sending now!';

/**
 * @typedef {object} ServerStats a snapshot; subtract two with diffServerStats
 * @property {number} pid
 * @property {number} uptime_ms
 * @property {{ user: number, system: number }} cpu microseconds since the process started
 * @property {{ idle: number, active: number }} elu event-loop idle and active milliseconds since start
 * @property {{ mean_ms: number, p99_ms: number, max_ms: number }} delay event-loop delay since the last snapshot
 * @property {number} bytes_in
 * @property {number} bytes_out
 * @property {number} connections_active
 * @property {number} connections_total
 * @property {number} buffered_bytes bytes queued in user space for writing, summed over connections
 */

/**
 * @typedef {object} EchoServer
 * @property {{ host: string, port: number }} tcp
 * @property {{ path: string }} uds
 * @property {import('./socket-file.js').OwnedSocket} owned what close() removes (a parent may remove it after a crash)
 * @property {() => ServerStats} stats
 * @property {() => Promise<import('./socket-file.js').SocketRelease>} close stop accepting, drop connections,
 *   remove the socket file (if it is still ours) and our private directories
 */

/**
 * Listen on TCP; errors that come from the address or port name the flag.
 * @param {net.Server} server
 * @param {string} host
 * @param {number} port
 */
function listenTcp(server, host, port) {
  return new Promise((resolve, reject) => {
    server.once('error', (error) => {
      const code = /** @type {NodeJS.ErrnoException} */ (error).code;
      if (code === 'EADDRINUSE') reject(new UsageError(`--port ${port} on ${host} is in use (use another port, or 0 for any free port)`, 'ERR_IN_USE'));
      else if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') reject(new UsageError(`--host ${host} is not an address of this machine (${code}); use 127.0.0.1`, 'ERR_HOST'));
      else if (code === 'EACCES') reject(new UsageError(`--port ${port} needs privileges to bind (EACCES); use a port above 1023, or 0 for any free port`, 'ERR_PORT'));
      else reject(error);
    });
    server.listen({ host, port }, () => resolve(undefined));
  });
}

/**
 * Start listening on both transports.
 * @param {{ host?: string, port?: number, path?: string, greeting?: boolean, noDelay?: boolean }} [options]
 *   path: the UDS path; default `echo.sock` in a fresh private directory
 * @returns {Promise<EchoServer>}
 */
export async function startServer({ host = '127.0.0.1', port = 0, path, greeting = false, noDelay = true } = {}) {
  /** @type {string | undefined} */
  let privateDir;
  let flag = '--uds';
  if (path === undefined) {
    privateDir = await createPrivateDir();
    path = join(privateDir, 'echo.sock');
    flag = 'the temp dir (TMPDIR)';
    try {
      checkSocketPath(path, flag);
    } catch (error) {
      await rmdir(privateDir);
      throw error;
    }
  } else {
    await prepareSocketPath(path, flag);
  }

  /** @type {Set<net.Socket>} */
  const sockets = new Set();
  const totals = { bytesIn: 0, bytesOut: 0, connections: 0 };
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();

  /** @param {net.Socket} socket */
  const echo = (socket) => {
    sockets.add(socket);
    totals.connections++;
    if (noDelay && socket.remoteFamily) socket.setNoDelay(true);
    socket.on('error', () => {}); // a client reset is not a server fault
    socket.once('close', () => {
      sockets.delete(socket);
      totals.bytesIn += socket.bytesRead;
      totals.bytesOut += socket.bytesWritten;
    });
    if (greeting) socket.write(GREETING);
    socket.pipe(socket); // byte-exact, and pauses reading while the peer is not reading
  };

  const tcpServer = net.createServer(echo);
  const udsServer = net.createServer(echo);
  /** @type {import('./socket-file.js').OwnedSocket} */
  let owned;
  try {
    await listenTcp(tcpServer, host, port);
    owned = await listenOwned(udsServer, path, flag, privateDir);
  } catch (error) {
    tcpServer.close();
    delay.disable();
    if (privateDir) await rmdir(privateDir).catch(() => {});
    throw error;
  }
  const address = /** @type {net.AddressInfo} */ (tcpServer.address());

  return {
    tcp: { host: address.address, port: address.port },
    uds: { path: owned.path },
    owned,
    stats() {
      let bytesIn = totals.bytesIn;
      let bytesOut = totals.bytesOut;
      let buffered = 0;
      for (const socket of sockets) {
        bytesIn += socket.bytesRead;
        bytesOut += socket.bytesWritten;
        buffered += socket.writableLength;
      }
      const elu = performance.eventLoopUtilization();
      const snapshot = {
        pid: process.pid,
        uptime_ms: performance.now() - started,
        cpu: process.cpuUsage(),
        elu: { idle: elu.idle, active: elu.active },
        delay: { mean_ms: delay.mean / 1e6, p99_ms: delay.percentile(99) / 1e6, max_ms: delay.max / 1e6 },
        bytes_in: bytesIn,
        bytes_out: bytesOut,
        connections_active: sockets.size,
        connections_total: totals.connections,
        buffered_bytes: buffered,
      };
      delay.reset();
      return snapshot;
    },
    async close() {
      const closed = Promise.all([tcpServer, udsServer].map((server) => new Promise((resolve) => server.close(() => resolve(undefined)))));
      for (const socket of sockets) socket.destroy();
      await closed;
      delay.disable();
      return releaseSocket(owned);
    },
  };
}

/**
 * What the server did between two snapshots.
 * @param {ServerStats} before
 * @param {ServerStats} after
 */
export function diffServerStats(before, after) {
  const cpuUs = (after.cpu.user - before.cpu.user) + (after.cpu.system - before.cpu.system);
  const active = after.elu.active - before.elu.active;
  const idle = after.elu.idle - before.elu.idle;
  return {
    cpu_us: cpuUs,
    elu: active + idle > 0 ? active / (active + idle) : 0,
    elu_active_ms: active,
    elu_idle_ms: idle,
    bytes_in: after.bytes_in - before.bytes_in,
    bytes_out: after.bytes_out - before.bytes_out,
  };
}
