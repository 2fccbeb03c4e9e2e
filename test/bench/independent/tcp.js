#!/usr/bin/env node
/**
 * Independent echo over loopback TCP: server on 127.0.0.1 port 0, noDelay
 * on both ends. Options and output: common.js.
 *
 *   node test/bench/independent/tcp.js --size 1KiB --depth 1 --duration 2s --warmup 0.5s --pin split
 */
import { streamClient } from './stream-client.js';

streamClient('tcp', ['tcp'], ({ port }) => ({ host: '127.0.0.1', port: Number(port), noDelay: true }));
