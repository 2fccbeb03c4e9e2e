/**
 * The client of the stream scripts (tcp, uds, uds-abstract): starts
 * echo-server.js in a process of its own (on the server's CPU with --pin),
 * connects from this process (on the client's CPU) and runs the echo loop,
 * counting bytes, not 'data' events.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { echoLoop, fail, onExit, pinClient, readOptions, report, serverPrefix } from './common.js';

const SERVER = fileURLToPath(new URL('./echo-server.js', import.meta.url));

/**
 * @param {string} transport
 * @param {string[]} listen echo-server.js's address arguments
 * @param {(ready: { port?: number }) => net.NetConnectOpts} connectTo
 */
export function streamClient(transport, listen, connectTo) {
  const options = readOptions(transport);
  pinClient(transport, options.pin);
  const [command, ...args] = [...serverPrefix(options.pin), process.execPath, SERVER, ...listen, ...(options.serverCorrupt ? ['--corrupt'] : [])];
  const server = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  onExit(() => server.kill());
  server.on('error', (error) => fail(transport, `could not start the echo server: ${error.message}`, 2));
  server.on('exit', (code, signal) => fail(transport, `the echo server exited (${signal ?? `code ${code}`})`));
  const startup = setTimeout(() => fail(transport, 'the echo server did not start within 10 s'), 10_000);
  let line = '';
  server.stdout.setEncoding('utf8').on('data', function onLine(/** @type {string} */ text) {
    line += text;
    if (!line.includes('\n')) return;
    server.stdout.off('data', onLine);
    clearTimeout(startup);
    const socket = net.connect(connectTo(JSON.parse(line)));
    socket.on('error', (error) => fail(transport, `socket: ${error.message}`));
    socket.on('close', () => fail(transport, 'the connection closed before the end'));
    const loop = echoLoop({
      transport,
      options,
      send: (packet) => { socket.write(packet); },
      finish: report,
    });
    socket.on('data', (chunk) => loop.verifyBytes(chunk));
    socket.on('connect', () => loop.start());
  });
}
