/**
 * The server fixture: one request handler, two listeners (TCP and UDS) at
 * once. The handler comes from the workload (an echo, a sink, a greeting,
 * an HTTP responder); this module binds, counts and closes. This and
 * transport.js are the only modules that open sockets by transport.
 */
import { rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { UsageError } from './errors.js';
import { HANDLERS } from './handlers.js';
import { checkSocketPath, createPrivateDir, listenOwned, prepareSocketPath, releaseSocket } from './socket-file.js';

/**
 * @typedef {object} DualServer
 * @property {{ host: string, port: number }} tcp
 * @property {{ path: string }} uds
 * @property {import('./socket-file.js').OwnedSocket} owned what close() removes (a parent may remove it after a crash)
 * @property {() => import('./server-stats.js').ServerStats} stats
 * @property {() => Promise<import('./socket-file.js').SocketRelease>} close stop accepting, drop connections,
 *   remove the socket file (if it is still ours) and our private directories
 */

/**
 * Listen on TCP; errors that come from the address or port name the flag.
 * @param {import('node:net').Server} server
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
 * @param {object} [options]
 * @param {() => import('node:net').Server} [options.createServer] a fresh server (net or http) with the workload's handler,
 *   called once per listener; default: the echo server with `greeting` and `noDelay`
 * @param {string} [options.host]
 * @param {number} [options.port]
 * @param {string} [options.path] the UDS path; default `<name>.sock` in a fresh private directory
 * @param {string} [options.name] of the socket file
 * @param {boolean} [options.greeting] for the default echo server
 * @param {boolean} [options.noDelay] for the default echo server
 * @returns {Promise<DualServer>}
 */
export async function startServer({ createServer, host = '127.0.0.1', port = 0, path, name = 'echo', greeting = false, noDelay = true } = {}) {
  createServer ??= () => HANDLERS.echo({ greeting, noDelay });
  /** @type {string | undefined} */
  let privateDir;
  let flag = '--uds';
  if (path === undefined) {
    privateDir = await createPrivateDir();
    path = join(privateDir, `${name}.sock`);
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

  /** @type {Set<import('node:net').Socket>} */
  const sockets = new Set();
  const totals = { bytesIn: 0, bytesOut: 0, connections: 0 };
  const started = performance.now();

  /** @param {import('node:net').Socket} socket */
  const track = (socket) => {
    sockets.add(socket);
    totals.connections++;
    socket.on('error', () => {}); // a client reset is not a server fault
    socket.once('close', () => {
      sockets.delete(socket);
      totals.bytesIn += socket.bytesRead;
      totals.bytesOut += socket.bytesWritten;
    });
  };

  const tcpServer = createServer().on('connection', track);
  const udsServer = createServer().on('connection', track);
  /** @type {import('./socket-file.js').OwnedSocket} */
  let owned;
  try {
    await listenTcp(tcpServer, host, port);
    owned = await listenOwned(udsServer, path, flag, privateDir);
  } catch (error) {
    tcpServer.close();
    if (privateDir) await rmdir(privateDir).catch(() => {});
    throw error;
  }
  const address = /** @type {import('node:net').AddressInfo} */ (tcpServer.address());

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
      return {
        pid: process.pid,
        uptime_ms: performance.now() - started,
        cpu: process.cpuUsage(),
        elu: { idle: elu.idle, active: elu.active },
        bytes_in: bytesIn,
        bytes_out: bytesOut,
        connections_active: sockets.size,
        connections_total: totals.connections,
        buffered_bytes: buffered,
      };
    },
    async close() {
      const closed = Promise.all([tcpServer, udsServer].map((server) => new Promise((resolve) => server.close(() => resolve(undefined)))));
      for (const socket of sockets) socket.destroy();
      await closed;
      return releaseSocket(owned);
    },
  };
}
