/**
 * A sweep's faults end to end: a trial past its hard limit, and Ctrl-C with
 * the --resume that completes what it left.
 */
import { existsSync } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMain, makeTempDir } from '../helpers/cli.js';
import { callMainLeavingNothing } from '../helpers/in-process.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

/** @param {string} text @returns {Record<string, any>[]} */
const parseCsv = (text) => parse(text, { columns: true });

describe('sweep faults', () => {
  it('a trial that passes its time limit becomes an error row and the sweep goes on', async () => {
    const out = join(tmp.dir, 'slow');
    const spec = join(tmp.dir, 'slow.json');
    await import('node:fs/promises').then((fs) => fs.writeFile(spec, JSON.stringify({ sizes: [65536, 64], depths: [1], transports: ['uds'], runs: 1, packets: 20000000, warmup: 0, trialTimeout: '200ms', seed: 3, test: {} })));
    const { code, stderr } = await callMain(['sweep', spec, '--test', '--no-probe', '--no-report', '--out', out]);
    expect(code, stderr).toBe(1);
    const rows = parseCsv(await readFile(join(out, 'trials.csv'), 'utf8'));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.status).toBe('error');
      expect(row.error).toMatch(/^trial exceeded its limit of 0\.2 s/);
    }
    expect(stderr).toMatch(/2 failed/);
    // --no-report: the measurement files, no report files, and how to write them
    expect(stderr).toContain(`no report files (--no-report); to write them: npx udsvstcp report ${out}\n`);
    expect(['summary.md', 'report.html', 'results.xlsx', 'chart-uds-vs-tcp.svg'].filter((f) => existsSync(join(out, f)))).toEqual([]);
    expect(existsSync(join(out, 'summary.csv'))).toBe(true);
  });

  it('Ctrl-C keeps valid partial files and removes the socket; --resume completes them', async () => {
    const out = join(tmp.dir, 'interrupted');
    const { spawn } = await import('node:child_process');
    const { BIN } = await import('../helpers/cli.js');
    const args = ['sweep', 'quick', '--test', '--sizes', '64,1024', '--depths', '1', '--runs', '2', '--packets', '100', '--warmup', '0', '--seed', '5', '--no-probe', '--no-report', '--out', out];
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (t) => {
      stderr += t;
      if (/\[2\/4\]/.test(stderr) && !child.killed) child.kill('SIGINT');
    });
    const code = await new Promise((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code, stderr).toBe(130);
    expect(stderr).toContain(`npx udsvstcp sweep --resume ${out}`);
    const partial = parseCsv(await readFile(join(out, 'trials.csv'), 'utf8'));
    expect(partial.length).toBeGreaterThanOrEqual(2);
    expect(partial.length % 2).toBe(0); // a trial's two rows go in together
    expect(partial.length).toBeLessThan(8);
    const meta = JSON.parse(await readFile(join(out, 'meta.json'), 'utf8'));
    expect(meta.status).toBe('interrupted');
    const sockets = stderr.match(/uds (\/\S+\.sock)/g) ?? [];
    expect(sockets.length).toBeGreaterThanOrEqual(1);
    for (const socket of sockets) await expect(lstat(socket.slice(4))).rejects.toThrow(/ENOENT/);

    const resumed = await callMainLeavingNothing(['sweep', '--resume', out, '--no-probe', '--no-report']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`resuming: ${partial.length} trial rows already there`);
    const rows = parseCsv(await readFile(join(out, 'trials.csv'), 'utf8'));
    expect(rows).toHaveLength(8);
    expect(new Set(rows.map((/** @type {any} */ r) => `${r.run}|${r.size_bytes}|${r.transport}`)).size).toBe(8);
    expect(rows.slice(0, partial.length)).toEqual(partial);
    expect(JSON.parse(await readFile(join(out, 'meta.json'), 'utf8')).status).toBe('complete');
  }, 90_000);
});
