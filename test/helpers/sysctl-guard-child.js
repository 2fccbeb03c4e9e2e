/**
 * A process that changes a stand-in sysctl file with withSysctl() and then
 * ends in the way it is told, for the test of the restore logic:
 *   node sysctl-guard-child.js FILE signal   prints "set VALUE", then waits (at most 20 s) for a signal
 *   node sysctl-guard-child.js FILE exit     calls process.exit(3) while the value is set
 */
import { readSysctl, withSysctl } from '../bench/sysctl-guard.js';

const [path, mode] = process.argv.slice(2);
await withSysctl(path, 4194304, async (signal) => {
  if (mode === 'exit') process.exit(3);
  process.stdout.write(`set ${readSysctl(path)}\n`);
  await new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, 20_000);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}, { log: () => {} }).catch((error) => process.stderr.write(`${error.message}\n`));
