import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/cli.js';
import { readTrialRows, startSweep, writeTinySpec } from '../helpers/sweeps.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => tmp.remove());

describe('a sweep removes what an echo server it lost left behind', () => {
  it('a server SIGKILLed by hand mid-sweep leaves no private directory or socket in TMPDIR', async () => {
    const serverTmp = join(tmp.dir, 'server-tmp');
    await mkdir(serverTmp);
    const out = join(tmp.dir, 'out');
    /** @type {string[]} */
    const killed = [];
    const sweep = startSweep([await writeTinySpec(tmp.dir, { sizes: [1, 64, 1024], runs: 1 }), '--test', '--no-probe', '--no-report', '--out', out], {
      env: { TMPDIR: serverTmp },
      onStderr: (text) => {
        const pid = /echo server pid (\d+)/.exec(text)?.[1];
        if (pid && killed.length === 0 && text.includes('[1/3]')) {
          killed.push(pid);
          process.kill(Number(pid), 'SIGKILL');
        }
      },
    });
    const { code, stderr } = await sweep.done;
    expect(killed).toHaveLength(1);
    expect([0, 1], stderr).toContain(code); // a trial running at the kill fails; the sweep goes on
    const servers = [...stderr.matchAll(/echo server pid (\d+): .* uds (\S+)/g)];
    expect(servers.length, stderr).toBe(2); // the killed one, then a new one
    expect(servers[0][2]).toMatch(new RegExp(`^${serverTmp}/udsvstcp-`));
    expect(await readTrialRows(out)).toHaveLength(6);
    expect(await readdir(serverTmp)).toEqual([]);
  });
});
