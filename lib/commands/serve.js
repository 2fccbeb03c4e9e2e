/** `udsvstcp serve`: serve() (lib/api/serve.js) in the foreground until SIGINT, SIGTERM or SIGHUP, then closed. */
import { isLoopback } from '../options/validate.js';
import { printable } from '../core/text.js';
import { describeTarget } from '../client/transport.js';
import { getTransport } from '../transports/index.js';
import { serve as startServing } from '../api/serve.js';

/**
 * A listener's address for people: host:port, or its path as its transport describes it (`@name` for an abstract socket).
 * @param {string} transport
 * @param {Record<string, any>} address
 */
const where = (transport, address) => ('port' in address ? `${address.host}:${address.port}` : printable(describeTarget(/** @type {any} */ ({ transport, ...address })).slice(transport.length + 1)));

const SIGNALS = /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP']);

/**
 * @param {Record<string, any>} opts raw options from commander
 * @param {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream }} io
 */
export async function serve(opts, { stdout, stderr }) {
  const { json, ...options } = opts;
  // handlers first: a signal that comes right after we announce ourselves must still close the server
  /** @type {(why: string) => void} */
  let stop = () => {};
  /** @type {Promise<string>} */
  const stopped = new Promise((resolve) => { stop = resolve; });
  for (const signal of SIGNALS) process.once(signal, stop);
  try {
    const server = await startServing(options);
    if (!isLoopback(server.host)) stderr.write(`udsvstcp: warning: --host ${printable(server.host)} is not a loopback address (--allow-remote); the server is reachable from elsewhere\n`);
    stderr.write(`udsvstcp ${server.handler} server (pid ${process.pid})\n${Object.entries(server.addresses).map(([t, a]) => `  ${t}  ${where(t, a)}${getTransport(t).nagle && !server.noDelay ? ' (Nagle on)' : ''}\n`).join('')}${server.greeting ? '  greeting on\n' : ''}  stop with Ctrl-C\n`);
    if (json) stdout.write(`${JSON.stringify(server.addresses)}\n`);
    const why = await stopped;
    const released = await server.close();
    const left = released.left.length ? `; left ${printable(released.left.join(', '))} (not empty)` : '';
    stderr.write(`udsvstcp ${server.handler} server stopped (${why}); ${printable(released.detail)}${left}\n`);
    return 0;
  } finally {
    for (const signal of SIGNALS) process.off(signal, stop);
  }
}
