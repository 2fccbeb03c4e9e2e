/**
 * `run --json` of the stream and connect workloads over UDS alone (the
 * trial in its own process, no lanes; over TCP and the abstract socket: the
 * sweeps' end-to-end tests, and echo's in test/cli/run-cli): an ok record, with
 * exactly the keys test/fixtures/schema pins (echo's: test/cli/run-cli,
 * http's and proxy's where their own tests run them). main() runs in this
 * process; the server it starts and the trial process are real, and
 * nothing is left running.
 */
import { describe, expect, it } from 'vitest';
import { callMainLeavingNothing } from '../helpers/in-process.js';
import { expectMechanismFigures } from '../helpers/mechanism.js';
import { expectPinnedRunKeys } from '../helpers/schema.js';

const TRANSPORTS = ['uds'];

describe.each([
  ['stream', ['--size', '64k']],
  ['connect', []],
])('run --workload %s --json', (workload, flags) => {
  it('prints an ok record with the pinned keys', async () => {
    const { code, stdout, stderr } = await callMainLeavingNothing(['run', '--workload', workload, ...flags, '--transport', TRANSPORTS.join(','), '--duration', '30ms', '--warmup', '10ms', '--json']);
    expect(code, stderr).toBe(0);
    const records = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(records.map((r) => [r.transport, r.status]).sort()).toEqual(TRANSPORTS.map((t) => [t, 'ok']).sort());
    for (const r of records) {
      expect(r.workload).toBe(workload);
      expectPinnedRunKeys(r, workload);
      expectMechanismFigures(r);
    }
  });
});
