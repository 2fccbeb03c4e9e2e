#!/usr/bin/env node
/**
 * Independent echo over a Unix domain socket: the socket file in a fresh
 * temporary directory, removed afterwards. Options and output: common.js.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onExit } from './common.js';
import { streamClient } from './stream-client.js';

const dir = mkdtempSync(join(tmpdir(), 'independent-uds-'));
onExit(() => rmSync(dir, { recursive: true, force: true }));
const path = join(dir, 'echo.sock');
streamClient('uds', ['uds', path], () => ({ path }));
