#!/usr/bin/env node
/**
 * Independent echo with a worker_threads Worker echoing on its port: each
 * packet is posted as a Uint8Array copy (not transferred). With --pin the
 * process is on the client's CPU and the worker thread, by its thread id,
 * on the server's (`taskset -p -c 0 TID`). Options and output: common.js.
 */
import { Worker } from 'node:worker_threads';
import { CPUS, echoLoop, fail, onExit, pinClient, pinTask, readOptions, report } from './common.js';

const transport = 'worker';
const options = readOptions(transport);
pinClient(transport, options.pin);
const worker = new Worker(new URL('./worker-echo.js', import.meta.url), { workerData: { corrupt: options.serverCorrupt } });
onExit(() => { void worker.terminate(); });
worker.on('error', (error) => fail(transport, `the worker: ${error.message}`));
worker.on('exit', (code) => fail(transport, `the worker exited (code ${code})`));
const startup = setTimeout(() => fail(transport, 'the worker did not start within 10 s'), 10_000);
const loop = echoLoop({ transport, options, send: (packet) => worker.postMessage(new Uint8Array(packet)), finish: report });
worker.once('message', (/** @type {{ tid: number }} */ { tid }) => {
  clearTimeout(startup);
  if (options.pin !== 'none') pinTask(transport, ['-p', '-c', CPUS[options.pin].server, String(tid)]);
  worker.on('message', (message) => {
    if (!(message instanceof Uint8Array)) fail(transport, 'verification failed: something other than bytes came back');
    loop.verifyPacket(message);
  });
  loop.start();
});
