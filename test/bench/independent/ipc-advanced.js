#!/usr/bin/env node
/**
 * Independent echo over the child_process IPC channel, serialization
 * 'advanced' (V8's serializer): each packet goes as a Buffer. Options and
 * output: common.js.
 */
import { fail } from './common.js';
import { ipcClient } from './ipc-client.js';

ipcClient('ipc-advanced', 'advanced', (packet) => packet, (message) => {
  if (!(message instanceof Uint8Array)) fail('ipc-advanced', 'verification failed: something other than bytes came back');
  return message;
});
