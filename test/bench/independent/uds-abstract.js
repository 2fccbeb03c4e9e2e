#!/usr/bin/env node
/**
 * Independent echo over a Linux abstract Unix socket ('\0' + a unique name;
 * no file). Options and output: common.js.
 */
import { randomBytes } from 'node:crypto';
import { streamClient } from './stream-client.js';

const name = `independent-${process.pid}-${randomBytes(8).toString('hex')}`;
streamClient('uds-abstract', ['abstract', name], () => ({ path: `\0${name}` }));
