#!/usr/bin/env node
/**
 * Independent echo over the child_process IPC channel, serialization 'json':
 * each packet goes as a base64 string and is decoded and verified on its
 * return. Options and output: common.js.
 */
import { fail } from './common.js';
import { ipcClient } from './ipc-client.js';

ipcClient('ipc-json', 'json', (packet) => packet.toString('base64'), (message) => {
  if (typeof message !== 'string') fail('ipc-json', `verification failed: a ${typeof message} came back instead of a base64 string`);
  return Buffer.from(message, 'base64');
});
