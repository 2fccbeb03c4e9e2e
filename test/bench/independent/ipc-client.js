/**
 * The client of the child_process IPC scripts: forks ipc-echo.js (through
 * `taskset -c 0` with --pin) with the given serialization, waits for its
 * 'ready', and runs the echo loop, a message per packet.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { echoLoop, fail, onExit, pinClient, readOptions, report, serverPrefix } from './common.js';

const CHILD = fileURLToPath(new URL('./ipc-echo.js', import.meta.url));

/**
 * @param {string} transport
 * @param {'json' | 'advanced'} serialization
 * @param {(packet: Buffer) => unknown} encode the message sent for a packet
 * @param {(message: unknown) => Uint8Array} decode the packet from the echoed message
 */
export function ipcClient(transport, serialization, encode, decode) {
  const options = readOptions(transport);
  pinClient(transport, options.pin);
  const [execPath, ...execArgv] = [...serverPrefix(options.pin), process.execPath];
  const child = fork(CHILD, options.serverCorrupt ? ['--corrupt'] : [], { serialization, execPath, execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  onExit(() => child.kill());
  child.on('error', (error) => fail(transport, `the echo child: ${error.message}`));
  child.on('exit', (code, signal) => fail(transport, `the echo child exited (${signal ?? `code ${code}`})`));
  const startup = setTimeout(() => fail(transport, 'the echo child did not start within 10 s'), 10_000);
  const loop = echoLoop({ transport, options, send: (packet) => { child.send(/** @type {any} */ (encode(packet))); }, finish: report });
  child.once('message', (ready) => {
    if (ready !== 'ready') fail(transport, `the echo child said ${JSON.stringify(ready)} instead of 'ready'`);
    clearTimeout(startup);
    child.on('message', (message) => loop.verifyPacket(decode(message)));
    loop.start();
  });
}
