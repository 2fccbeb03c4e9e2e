/**
 * `run --json` of the stream and connect workloads: one record per transport
 * asked for, with exactly the keys test/fixtures/schema pins (echo, http and
 * proxy records are checked where their own CLI tests run them).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { expectMechanismFigures } from '../helpers/mechanism.js';
import { expectPinnedRunKeys } from '../helpers/schema.js';

describe.each([
  ['stream', ['--size', '64k']],
  ['connect', []],
])('udsvstcp run --workload %s --json', (workload, flags) => {
  it('prints an ok record with the pinned keys', async () => {
    const { code, stdout, stderr } = await runCli(['run', '--workload', workload, ...flags, '--transport', 'uds', '--duration', '30ms', '--warmup', '10ms', '--json']);
    expect(code, stderr).toBe(0);
    const records = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ workload, transport: 'uds', status: 'ok' });
    expectPinnedRunKeys(records[0], workload);
    expectMechanismFigures(records[0]);
  });
});
