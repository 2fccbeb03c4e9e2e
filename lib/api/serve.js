/**
 * `serve()`: a workload's server (echo by default) listening on TCP, a Unix domain socket and (Linux) an abstract
 * socket at once, as `udsvstcp serve` starts it, until `close()`.
 */
import { HANDLERS } from '../fixture/handlers.js';
import { startServer } from '../fixture/server.js';
import { checkTempDir } from '../fixture/socket-file.js';
import { resolveServeOptions } from '../options/validate.js';
import { checkOptionKeys, optionKeys } from '../options/settings.js';

/**
 * @typedef {Record<string, string | number | boolean | undefined>} ServeOptions `udsvstcp serve`'s flags, camelCased
 *   (the settings table, lib/options/settings.js, lists them), but --json
 */

/**
 * @typedef {object} Serving
 * @property {string} handler the server's kind: echo, sink, greeter, http
 * @property {string} host the TCP address asked for
 * @property {boolean} noDelay
 * @property {boolean} greeting
 * @property {Record<string, import('../transports/transport.js').Address>} addresses every listener's, by transport
 * @property {() => import('../fixture/server.js').ServerStats} stats
 * @property {() => Promise<import('../fixture/socket-file.js').SocketRelease>} close drop the connections, remove the
 *   socket file if it is still the one this server created, and its private directory
 */

const KEYS = optionKeys('serve').filter((k) => k !== 'json');

/**
 * Start a server; resolves once every listener listens.
 * @param {ServeOptions} [raw]
 * @returns {Promise<Serving>}
 */
export async function serve(raw = {}) {
  checkOptionKeys('serve', raw, KEYS);
  const options = resolveServeOptions(/** @type {Record<string, any>} */ ({ ...raw, port: raw.port === undefined ? undefined : String(raw.port) }));
  if (options.path === undefined) checkTempDir(); // the socket file goes there
  const make = HANDLERS[options.handler];
  const server = await startServer({ ...options, name: options.handler, createServer: () => make(options) });
  return { handler: options.handler, host: options.host, noDelay: options.noDelay, greeting: options.greeting, addresses: server.addresses, stats: () => server.stats(), close: () => server.close() };
}
