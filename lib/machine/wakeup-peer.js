/**
 * One end of the wake-up probe, in a process of its own (started by
 * lib/machine/wakeup-probe.js through taskset, with a Node IPC channel):
 *
 *   echo PATH   listen on the Unix socket PATH and echo every byte back
 *   ping PATH   on a `connect` request connect to PATH; on a `run` request
 *               ({ ms }) send 1 byte, wait for its echo, again, for ms;
 *               answer with every round trip in µs
 *
 * Each says `ready` once it can (lib/core/child.js), and exits when the channel to
 * its parent closes. Nothing here outlives LIFETIME_MS.
 */
import net from 'node:net';
import { onParentGone, parentChannel } from '../core/child.js';

/** Hard bound on this process's life, whatever its parent does. */
const LIFETIME_MS = 30_000;
/** Hard bound on the round trips of one block (and on a block's answer's size). */
const MAX_ROUND_TRIPS = 200_000;

const parent = /** @type {import('../core/child.js').Channel} */ (parentChannel());
const fail = (/** @type {Error} */ error) => {
  process.stderr.write(`udsvstcp wake-up probe: ${error.message}\n`);
  process.exit(1);
};

setTimeout(() => process.exit(3), LIFETIME_MS).unref();
onParentGone();

const [role, path] = process.argv.slice(2);

if (role === 'echo') {
  const server = net.createServer((socket) => {
    socket.on('data', (data) => socket.write(data));
    socket.on('error', () => socket.destroy());
  });
  server.on('error', fail);
  server.listen(path, () => parent.send('ready'));
} else if (role === 'ping') {
  const one = Buffer.from([1]);
  /** @type {net.Socket | undefined} */
  let socket;
  /** @type {((rtt: number) => void) | null} */
  let onEcho = null;
  let sent = 0n;
  parent.serve('connect', () => new Promise((resolve) => {
    socket = net.connect({ path }, () => resolve(undefined));
    socket.on('error', fail);
    socket.on('data', (data) => {
      // one byte in flight: each byte back ends one round trip
      for (let i = 0; i < data.length; i++) onEcho?.(Number(process.hrtime.bigint() - sent) / 1000);
    });
  }));
  // a block: round trips for ms, each in µs
  parent.serve('run', (message) => new Promise((resolve) => {
    const samples = new Float64Array(MAX_ROUND_TRIPS);
    let n = 0;
    const deadline = process.hrtime.bigint() + BigInt(Math.round(message.ms * 1e6));
    onEcho = (rtt) => {
      samples[n++] = rtt;
      if (n < MAX_ROUND_TRIPS && process.hrtime.bigint() < deadline) {
        sent = process.hrtime.bigint();
        socket?.write(one);
        return;
      }
      onEcho = null;
      resolve(Array.from(samples.subarray(0, n), (x) => Math.round(x * 100) / 100));
    };
    sent = process.hrtime.bigint();
    socket?.write(one);
  }));
  parent.send('ready');
} else {
  fail(new Error(`unknown role ${role}`));
}
