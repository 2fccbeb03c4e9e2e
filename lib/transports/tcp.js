/** Loopback TCP: the baseline every other transport is measured against. */
import { UsageError } from '../core/errors.js';

/** @param {string} host @param {number} port */
const at = (host, port) => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/** @type {import('./transport.js').Transport} */
export const tcp = {
  name: 'tcp',
  label: 'TCP',
  what: 'loopback TCP (127.0.0.1), TCP_NODELAY unless --nagle: the baseline of every ratio',
  carries: ['messages', 'stream', 'upstream'],
  platforms: null,
  upstream: 'address',
  target: 'HOST:PORT',
  reachesNetns: true,
  nagle: true,
  cpu: 'client: the lane process; server: the server process',
  // errors that come from the address or port name the flag
  listen: (server, { host, port, backlog }) => new Promise((resolve, reject) => {
    server.once('error', (error) => {
      const code = /** @type {NodeJS.ErrnoException} */ (error).code;
      if (code === 'EADDRINUSE') reject(new UsageError(`--port ${port} on ${host} is in use (use another port, or 0 for any free port)`, 'ERR_IN_USE'));
      else if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') reject(new UsageError(`--host ${host} is not an address of this machine (${code}); use 127.0.0.1`, 'ERR_HOST'));
      else if (code === 'EACCES') reject(new UsageError(`--port ${port} needs privileges to bind (EACCES); use a port above 1023, or 0 for any free port`, 'ERR_PORT'));
      else reject(error);
    });
    server.listen({ host, port, backlog }, () => {
      const address = /** @type {import('node:net').AddressInfo} */ (server.address());
      resolve({ address: { host: address.address, port: address.port } });
    });
  }),
  describe: (t) => `tcp ${at(String(t.host), Number(t.port))}`,
  connectOptions: (t, { noDelay }) => ({ host: t.host, port: t.port, noDelay }),
  http: (t) => ({ origin: `http://${at(t.host, t.port)}` }),
};
