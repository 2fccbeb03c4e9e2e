/**
 * `udsvstcp serve`: the echo server in the foreground until SIGINT, SIGTERM
 * or SIGHUP, or until the parent that forked it goes away.
 */
import { isLoopback } from '../options.js';
import { startServer } from '../server.js';

/**
 * @param {{ host: string, port: number, path?: string, greeting: boolean, noDelay: boolean, json: boolean }} options validated
 * @param {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream }} io
 * @returns {Promise<number>} exit code
 */
export async function serve(options, { stdout, stderr }) {
  // handlers first: a signal that comes right after we announce ourselves must still clean up
  /** @type {(why: string) => void} */
  let stop = () => {};
  /** @type {Promise<string>} */
  const stopped = new Promise((resolve) => { stop = resolve; });
  const onSignal = (/** @type {string} */ signal) => stop(signal);
  const onDisconnect = () => stop('disconnect');
  const signals = /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP']);
  for (const signal of signals) process.once(signal, onSignal);
  if (process.send) process.once('disconnect', onDisconnect);
  let server;
  try {
    server = await startServer(options);
  } catch (error) {
    // let the process end: no listeners or IPC channel may hold it open
    for (const signal of signals) process.off(signal, onSignal);
    process.off('disconnect', onDisconnect);
    if (process.connected) process.disconnect();
    throw error;
  }
  const { tcp, uds } = server;
  if (!isLoopback(options.host)) stderr.write(`udsvstcp: warning: --host ${options.host} is not a loopback address (--allow-remote); the echo server is reachable from elsewhere\n`);
  stderr.write(`udsvstcp echo server (pid ${process.pid})\n  tcp  ${tcp.host}:${tcp.port}${options.noDelay ? '' : ' (Nagle on)'}\n  uds  ${uds.path}\n${options.greeting ? '  greeting on\n' : ''}  stop with Ctrl-C\n`);
  if (options.json) stdout.write(`${JSON.stringify({ tcp, uds })}\n`);
  if (process.send) {
    process.on('message', (/** @type {any} */ message) => {
      if (message?.type === 'stats' && process.connected) process.send?.({ type: 'stats', id: message.id, stats: server.stats() });
    });
    // `owned` lets the parent remove our socket and directories if we are killed
    process.send({ type: 'listening', tcp, uds, owned: server.owned });
  }

  const why = await stopped;
  const released = await server.close();
  if (process.connected) process.disconnect();
  const left = released.left.length ? `; left ${released.left.join(', ')} (not empty)` : '';
  if (why !== 'disconnect' || released.socket !== 'removed') stderr.write(`udsvstcp echo server stopped (${why}); ${released.detail}${left}\n`);
  return 0;
}
