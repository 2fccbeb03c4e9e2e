/**
 * `run` with several runs and nothing to pair against TCP: a transport
 * measured alone, or a TCP that failed. A good measurement is exit 0 and a
 * failed trial exit 1, each said in words; never an internal error once the
 * rows are printed. A transport alone measures for the time asked. main()
 * runs in this process with streams passed in; the server it starts, and
 * the one given as a target (in this process), are real, and nothing is
 * left running.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../lib/fixture/server.js';
import { callMainLeavingNothing } from '../helpers/in-process.js';
import { useTempDir } from '../helpers/temp.js';

const tmp = useTempDir();

const short = ['--size', '1KiB', '--duration', '60ms', '--warmup', '10ms', '--json'];

describe('run with several runs and no TCP to pair with', () => {
  // the cause (ratios of nothing at all) is the transport's no more than the runs': uds stands for worker, uds-abstract, --uds
  it('--transport uds --runs 2 measures for the time asked, prints every row and exits 0', async () => {
    const [transport, runs] = ['uds', 2];
    const r = await callMainLeavingNothing(['run', '--transport', transport, '--runs', String(runs), ...short]);
    expect(r.code, r.stderr).toBe(0);
    const records = r.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(records.map((x) => [x.transport, x.status])).toEqual(Array.from({ length: runs }, () => [transport, 'ok']));
    for (const x of records) expect(x.elapsed_ms).toBeGreaterThanOrEqual(60); // --duration 60ms
    expect(r.stderr).not.toMatch(/udsvstcp: error:|describe\(\)/);
    // what it measured, and that nothing is compared: no failure wording
    expect(r.stderr).toMatch(/^1 KiB depth 1: \S+ alone: its messages per second measured, nothing compared \(there is no TCP baseline to compare it with\)$/m);
  }, 30_000);

  it('--tcp to a closed port beside a live --uds, --runs 2: exit 1 naming the TCP failure, no internal error', async () => {
    const server = await startServer({ path: join(tmp.dir, 'echo.sock') });
    try {
      const r = await callMainLeavingNothing(['run', '--uds', server.uds.path, '--tcp', '127.0.0.1:1', '--runs', '2', ...short]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/^udsvstcp: tcp trial failed: .*127\.0\.0\.1:1/m);
      expect(r.stderr).not.toMatch(/udsvstcp: error:|describe\(\)/);
    } finally {
      await server.close();
    }
  }, 30_000);
});
