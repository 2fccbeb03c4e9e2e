/**
 * Transport lists as `run --transport`, `sweep --transports` and a spec
 * file's "transports" give them: a name given twice, or two or more
 * transports without tcp (the baseline of every ratio), is one line naming
 * the flag or key, exit 2, nothing started; one transport alone is taken.
 * main() runs in this process with streams passed in.
 */
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { usePrivateTmpdir } from '../helpers/temp.js';
import { expectRefused } from '../helpers/in-process.js';

const tmp = usePrivateTmpdir();

const TWICE = /names (\S+) more than once: give each transport once \(of tcp, uds, uds-abstract, ipc-json, ipc-advanced, worker\); got /;
const NO_TCP = /has no tcp: TCP is the baseline every ratio is against, so a list of two or more must include it/;

describe('transport lists refused before anything starts', () => {
  it.each([
    [['run', '--transport', 'uds,uds,tcp'], /^udsvstcp: error: --transport names uds more than once/],
    [['run', '--transport', 'tcp,tcp'], TWICE],
    [['run', '--transport', 'uds,worker'], /^udsvstcp: error: --transport uds,worker has no tcp: TCP is the baseline every ratio is against/],
    [['run', '--uds', '/tmp/nothing-here.sock', '--transport', 'uds,ipc-json'], NO_TCP],
    [['sweep', 'quick', '--test', '--transports', 'tcp,tcp'], /^udsvstcp: error: --transports names tcp more than once/],
    [['sweep', 'quick', '--test', '--transports', 'uds,uds-abstract,worker'], /^udsvstcp: error: --transports uds,uds-abstract,worker has no tcp: .*\(e\.g\. tcp,uds,uds-abstract,worker\); or give one transport to measure it alone$/m],
  ])('%j: exit 2, one line naming the flag', async (args, message) => {
    const out = join(tmp.dir, 'out');
    await expectRefused(args[0] === 'sweep' ? [...args, '--no-probe', '--out', out] : [...args, '--packets', '10'], message);
    expect(await readdir(tmp.tmpdir)).toEqual([]);
    expect(existsSync(out)).toBe(false);
  });

  it.each([
    [['uds', 'uds'], /^udsvstcp: error: .*tiny\.json "transports" names uds more than once/],
    [['uds', 'ipc-json'], /^udsvstcp: error: .*tiny\.json "transports" uds,ipc-json has no tcp: TCP is the baseline every ratio is against/],
  ])('a spec file\'s "transports" %j: the same rule, naming the key', async (transports, message) => {
    const spec = join(tmp.dir, 'tiny.json');
    await writeFile(spec, JSON.stringify({ sizes: [64], depths: [1], transports, runs: 1, packets: 10, warmup: 0 }));
    const out = join(tmp.dir, 'out');
    await expectRefused(['sweep', spec, '--no-probe', '--out', out], message);
    expect(existsSync(out)).toBe(false);
  });
});
