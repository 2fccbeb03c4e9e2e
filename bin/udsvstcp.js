#!/usr/bin/env node
import { checkAddressSpace, describeResourceError } from '../lib/core/resources.js';
import { printable } from '../lib/core/text.js';

// a reader that goes away (udsvstcp … | head) ends the output, not the program with a stack trace
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EPIPE') throw error;
  });
}
// limits first: too small an address space kills V8 natively while it loads the rest, too few files fail the loading
const refused = checkAddressSpace();
if (refused) {
  process.stderr.write(`udsvstcp: error: ${refused}\n`);
  process.exitCode = 2;
} else {
  const cli = await import('../lib/cli.js').catch((error) => {
    const line = describeResourceError(error);
    if (!line) throw error;
    process.stderr.write(`udsvstcp: error: ${printable(line)}\n`);
    return null;
  });
  process.exitCode = cli ? await cli.main(process.argv.slice(2)) : 1;
}
