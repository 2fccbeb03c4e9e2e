/**
 * The server fixture as a process: started by spawnServer (lib/server-process.js)
 * as `node lib/server-main.js '<options JSON>'`, and by `udsvstcp serve` in the
 * foreground. It serves until SIGINT, SIGTERM or SIGHUP, or until the parent
 * that forked it goes away. With a parent, it speaks the control protocol
 * over Node IPC (never over the measured sockets): it says `listening` once
 * both listeners are up, and answers each `stats` request with a snapshot.
 */
import { fileURLToPath } from 'node:url';
import { HANDLERS } from './handlers.js';
import { startServer } from './server.js';

/**
 * @typedef {object} ServerProcessOptions
 * @property {'echo' | 'sink' | 'greeter' | 'http'} handler
 * @property {string} [host]
 * @property {number} [port]
 * @property {string} [path] UDS path; default: a fresh private directory
 * @property {boolean} [greeting]
 * @property {boolean} [noDelay]
 */

/**
 * Serve until a signal (or the parent's disconnect).
 * @param {ServerProcessOptions} options
 * @param {{ onListening?: (server: import('./server.js').DualServer) => void }} [hooks]
 * @returns {Promise<{ why: string, released: import('./socket-file.js').SocketRelease }>}
 */
export async function runServer(options, { onListening } = {}) {
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
    const make = HANDLERS[options.handler];
    server = await startServer({ ...options, name: options.handler, createServer: () => make(options) });
  } catch (error) {
    // let the process end: no listeners or IPC channel may hold it open
    for (const signal of signals) process.off(signal, onSignal);
    process.off('disconnect', onDisconnect);
    if (process.connected) process.disconnect();
    throw error;
  }
  onListening?.(server);
  if (process.send) {
    const s = server;
    process.on('message', (/** @type {any} */ message) => {
      if (message?.type === 'stats' && process.connected) process.send?.({ type: 'stats', id: message.id, stats: s.stats() });
    });
    // `owned` lets the parent remove our socket and directories if we are killed
    process.send({ type: 'listening', tcp: server.tcp, uds: server.uds, owned: server.owned });
  }
  const why = await stopped;
  const released = await server.close();
  if (process.connected) process.disconnect();
  return { why, released };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await runServer(JSON.parse(process.argv[2] ?? '{}'));
  } catch (error) {
    const err = /** @type {Error & { exitCode?: number }} */ (error);
    process.stderr.write(`udsvstcp: ${err.message}\n`);
    process.exitCode = err.exitCode ?? 1;
  }
}
