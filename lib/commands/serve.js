/**
 * `udsvstcp serve`: a server fixture (the echo server by default) in the
 * foreground until SIGINT, SIGTERM or SIGHUP.
 */
import { isLoopback } from '../options/validate.js';
import { runServer } from '../fixture/server-main.js';
import { printable } from '../core/text.js';
import { checkTempDir } from '../fixture/socket-file.js';
import { describeTarget } from '../client/transport.js';
import { getTransport } from '../transports/index.js';

/**
 * A listener's address for people: host:port, or its path as its transport describes it (`@name` for an abstract socket).
 * @param {string} transport
 * @param {Record<string, any>} address
 */
const where = (transport, address) => ('port' in address ? `${address.host}:${address.port}` : printable(describeTarget(/** @type {any} */ ({ transport, ...address })).slice(transport.length + 1)));

/**
 * @param {import('../fixture/server-main.js').ServerProcessOptions & { host: string, json: boolean }} options validated
 * @param {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream }} io
 * @returns {Promise<number>} exit code
 */
export async function serve(options, { stdout, stderr }) {
  if (options.path === undefined) checkTempDir(); // the socket file goes there
  const { why, released } = await runServer(options, {
    onListening: ({ addresses }) => {
      if (!isLoopback(options.host)) stderr.write(`udsvstcp: warning: --host ${printable(options.host)} is not a loopback address (--allow-remote); the server is reachable from elsewhere\n`);
      stderr.write(`udsvstcp ${options.handler} server (pid ${process.pid})\n${Object.entries(addresses).map(([t, a]) => `  ${t}  ${where(t, a)}${getTransport(t).nagle && !options.noDelay ? ' (Nagle on)' : ''}\n`).join('')}${options.greeting ? '  greeting on\n' : ''}  stop with Ctrl-C\n`);
      if (options.json) stdout.write(`${JSON.stringify(addresses)}\n`);
    },
  });
  const left = released.left.length ? `; left ${printable(released.left.join(', '))} (not empty)` : '';
  stderr.write(`udsvstcp ${options.handler} server stopped (${why}); ${printable(released.detail)}${left}\n`);
  return 0;
}
