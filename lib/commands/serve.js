/**
 * `udsvstcp serve`: the echo server in the foreground until SIGINT/SIGTERM,
 * or until the parent that forked it goes away.
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
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  if (process.send) process.once('disconnect', onDisconnect);
  let server;
  try {
    server = await startServer(options);
  } catch (error) {
    // let the process end: no listeners or IPC channel may hold it open
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('disconnect', onDisconnect);
    if (process.connected) process.disconnect();
    throw error;
  }
  const { tcp, uds } = server;
  if (!isLoopback(options.host)) stderr.write(`udsvstcp: warning: --host ${options.host} is not a loopback address; the echo server is reachable from elsewhere\n`);
  stderr.write(`udsvstcp echo server (pid ${process.pid})\n  tcp  ${tcp.host}:${tcp.port}${options.noDelay ? '' : ' (Nagle on)'}\n  uds  ${uds.path}\n${options.greeting ? '  greeting on\n' : ''}  stop with Ctrl-C\n`);
  if (options.json) stdout.write(`${JSON.stringify({ tcp, uds })}\n`);
  if (process.send) {
    process.on('message', (/** @type {any} */ message) => {
      if (message?.type === 'stats' && process.connected) process.send?.({ type: 'stats', id: message.id, stats: server.stats() });
    });
    process.send({ type: 'listening', tcp, uds });
  }

  const why = await stopped;
  await server.close();
  if (process.connected) process.disconnect();
  if (why !== 'disconnect') stderr.write(`udsvstcp echo server stopped (${why}); removed ${uds.path}\n`);
  return 0;
}
