import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isLoopback } from '../../lib/options/validate.js';
import { makeTempDir, runCli } from '../helpers/cli.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => tmp.remove());

/**
 * Exit 2, one line naming the flag or key, nothing on stdout, nothing left in the temp dir but `keep`.
 * @param {string[]} args
 * @param {string} message
 * @param {string[]} [keep]
 */
async function expectUsageError(args, message, keep = []) {
  const { code, stdout, stderr } = await runCli(args, { cwd: tmp.dir });
  expect(code, stderr).toBe(2);
  expect(stdout).toBe('');
  expect(stderr.trimEnd().split('\n'), stderr).toHaveLength(1);
  expect(stderr).toContain(message);
  expect((await readdir(tmp.dir)).sort()).toEqual(keep);
}

describe('bad input, the small cases: exit 2, one line naming the flag or key', () => {
  it('--tcp 127.999.0.1 is not an IPv4 loopback address (decided without a name lookup)', async () => {
    expect(isLoopback('127.999.0.1')).toBe(false);
    expect(isLoopback('127.0.0.1')).toBe(true);
    await expectUsageError(['run', '--tcp', '127.999.0.1:5555'], '--tcp host must be a loopback address (an IPv4 address in 127.0.0.0/8, ::1 or localhost): udsvstcp measures local transports only; got "127.999.0.1"');
  });

  it('serve --uds in a directory that does not exist', async () => {
    const path = join(tmp.dir, 'missing-dir', 'x.sock');
    await expectUsageError(['serve', '--uds', path], `--uds ${path}: the directory ${join(tmp.dir, 'missing-dir')} does not exist; give a socket path in an existing directory`);
  });

  it('serve --host that is not a loopback address, without --allow-remote', async () => {
    await expectUsageError(['serve', '--host', '8.8.8.8'], '--host must be a loopback address (an IPv4 address in 127.0.0.0/8, ::1 or localhost); got "8.8.8.8". Add --allow-remote to bind it anyway');
  });

  it('serve --host --allow-remote with an address this machine does not have', async () => {
    await expectUsageError(['serve', '--host', '8.8.8.8', '--allow-remote', '--uds', join(tmp.dir, 'x.sock')], '--host 8.8.8.8 is not an address of this machine (EADDRNOTAVAIL)');
  });

  it('--warmup with a time over the limit says that a bare number is packets', async () => {
    await expectUsageError(['run', '--warmup', '11m'], '--warmup must be a packet count from 0 to 10000000 (a bare number: 1000) or a time up to 600 s (with a unit: 250ms, 1s, 10m); got "11m"');
  });

  it.each([
    [{ runs: [3] }, 'spec.json "runs" must be a whole number (3); got [3]'],
    [{ pin: ['split'] }, 'spec.json "pin" must be "none", "split" or "same"; got ["split"]'],
    [{ depths: [[1]] }, 'spec.json "depths" must be a list of whole numbers ([1, 16]); got [[1]]'],
    [{ test: { packets: '100' } }, 'spec.json "test.packets" must be a whole number (100000); got "100"'],
  ])('a spec value of the wrong type %j is refused naming the key', async (keys, message) => {
    await writeFile(join(tmp.dir, 'spec.json'), JSON.stringify({ sizes: [64], ...keys }));
    await expectUsageError(['sweep', join(tmp.dir, 'spec.json')], message, ['spec.json']);
  });

  it('sweep --packets with --duration, as run refuses them', async () => {
    await expectUsageError(['sweep', 'quick', '--packets', '10', '--duration', '1s'], '--packets and --duration exclude each other: give one');
  });
});
