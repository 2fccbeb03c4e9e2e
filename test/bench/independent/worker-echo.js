/**
 * The echo end of worker.js, a worker thread: first posts its own thread id
 * (from /proc/thread-self, ".../task/TID") so the main thread can pin it,
 * then posts back every message. workerData.corrupt flips the last byte of
 * the first one.
 */
import { readlinkSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

if (!parentPort) throw new Error('worker-echo.js must run in a worker thread');
const port = parentPort;
let corrupt = workerData?.corrupt === true;
port.on('message', (/** @type {Uint8Array} */ message) => {
  if (corrupt) { message[message.length - 1] ^= 0xff; corrupt = false; }
  port.postMessage(message);
});
port.postMessage({ tid: Number(readlinkSync('/proc/thread-self').split('/').pop()) });
