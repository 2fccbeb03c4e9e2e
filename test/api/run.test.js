import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { UsageError, run } from 'udsvstcp';
import { usePrivateTmpdir } from '../helpers/temp.js';

const tmp = usePrivateTmpdir();

describe("run() through the package's exports", () => {
  it('measures tcp and uds against a server it starts, and returns the records and UDS against TCP', async () => {
    /** @type {import('udsvstcp').RunEvent[]} */
    const events = [];
    const result = await run({ transport: 'tcp,uds', size: '1KiB', packets: 200, warmup: 20, runs: 2, pin: 'none' }, { onProgress: (event) => events.push(event) });
    expect(result.rows.map((r) => [r.run, r.transport, r.status, r.size_bytes])).toEqual([[0, 'tcp', 'ok', 1024], [0, 'uds', 'ok', 1024], [1, 'uds', 'ok', 1024], [1, 'tcp', 'ok', 1024]]);
    for (const r of result.rows) expect(r.msgs_per_s).toBeGreaterThan(0);
    expect(result.ratios.uds.basis).toBe('2 runs');
    expect(result.ratios.uds.interval.mean).toBeGreaterThan(0);
    expect(result.ratios.uds.interval.n).toBe(2);
    expect(result.interrupted).toBe(false);
    expect(events.filter((e) => e.type === 'trial-end')).toHaveLength(2);
    expect(await readdir(tmp.tmpdir)).toEqual([]); // the server it started is gone
  }, 30_000);

  it('refuses bad input with a UsageError naming the flag, before starting a server', async () => {
    await expect(run({ size: '100' })).rejects.toThrow(UsageError);
    await expect(run({ size: '100' })).rejects.toThrow(/--size/);
    await expect(run({ transport: 'uds,uds' })).rejects.toThrow(/names uds more than once/);
    await expect(run(/** @type {any} */ ({ sise: 64 }))).rejects.toThrow(/unknown run option "sise"/);
  });
});
