#!/usr/bin/env node
import { main } from '../lib/cli.js';

// a reader that goes away (udsvstcp … | head) ends the output, not the program with a stack trace
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EPIPE') throw error;
  });
}
process.exitCode = await main(process.argv.slice(2));
