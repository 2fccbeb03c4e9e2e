import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callMain, makeTempDir } from '../helpers/cli.js';
import { readMetaJson, readTrialRows, writeTinySpec } from '../helpers/sweeps.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => tmp.remove());

describe('a fatal error after the results directory exists', () => {
  it('marks meta.json failed with the reason; --out then says what to do, and --resume continues', async () => {
    // the echo server cannot start: its socket path under this TMPDIR would be too long
    const long = join(tmp.dir, 'd'.repeat(100));
    await mkdir(long);
    const out = join(tmp.dir, 'out');
    const spec = await writeTinySpec(tmp.dir, { runs: 1 });
    const failed = await callMain(['sweep', spec, '--test', '--no-probe', '--out', out], { env: { TMPDIR: long } });
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toContain(`udsvstcp: error: TMPDIR ${long} is ${Buffer.byteLength(long)} bytes long: `);
    expect(failed.stderr).toContain(`what was measured is kept in ${out} (meta.json status: failed); after fixing the cause, continue with:\n  npx udsvstcp sweep --resume ${out}\n`);
    expect(await readMetaJson(out)).toMatchObject({ status: 'failed', error: expect.stringMatching(/^TMPDIR \S+ is \d+ bytes long/), sessions: [expect.objectContaining({ status: 'failed' })] });
    expect((await readdir(out)).sort()).toEqual(['blocks.csv', 'meta.json', 'trials.csv']);
    expect(await readdir(long)).toEqual([]);

    const again = await callMain(['sweep', spec, '--out', out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^udsvstcp: error: --out .*out already holds results; use --resume .*out to complete them, or another --out \(its sweep is failed: TMPDIR \S+ is \d+ bytes long/);

    const resumed = await callMain(['sweep', '--resume', out, '--no-probe', '--no-report']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`note: the last session failed (TMPDIR ${long} is`);
    expect(await readTrialRows(out)).toHaveLength(4);
    expect(await readMetaJson(out)).toMatchObject({ status: 'complete', error: null, sessions: [expect.objectContaining({ status: 'failed' }), expect.objectContaining({ status: 'complete' })] });
  });
});
