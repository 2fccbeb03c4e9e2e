/**
 * `udsvstcp run` through the binary, end to end: the echo workload over
 * every stream transport with the server it starts, and Ctrl-C. What run
 * does with its options, in this process: test/integration/run-*.test.js.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, callMain, makeTempDir } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { expectMechanismFigures } from '../helpers/mechanism.js';
import { expectPinnedRunKeys } from '../helpers/schema.js';

const linux = process.platform === 'linux';
/** Every stream transport: the abstract socket on Linux only. */
const TRANSPORTS = linux ? ['tcp', 'uds', 'uds-abstract'] : ['tcp', 'uds'];

/** @param {string} stdout */
const lines = (stdout) => stdout.trim().split('\n').map((line) => JSON.parse(line));

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => tmp.remove());

describe('udsvstcp run', () => {
  it('starts its own server and prints one JSON record per trial and transport, every echoed byte verified, with exactly the keys test/fixtures/schema pins, and a ratio against TCP for each', async () => {
    const { code, stdout, stderr } = await callMain(['run', '--transport', TRANSPORTS.join(','), '--size', '1k', '--depth', '4', '--packets', '2000', '--warmup', '200', '--seed', '5', '--json']);
    expect(code, stderr).toBe(0);
    const records = lines(stdout);
    expect(records.map((r) => r.transport).sort()).toEqual([...TRANSPORTS].sort());
    for (const r of records) {
      // status ok: the pipeline compared every echoed byte with what was sent
      expectPinnedRunKeys(r, 'echo');
      expectMechanismFigures(r);
      expect(r).toMatchObject({ workload: 'echo', size_bytes: 1024, depth: 4, packets: 2000, status: 'ok', error: '' });
      for (const key of ['elapsed_ms', 'msgs_per_s', 'mb_per_s', 'rtt_mean_us', 'rtt_p50_us', 'rtt_p99_us', 'client_cpu_us_per_msg', 'server_cpu_us_per_msg', 'client_elu', 'server_elu']) {
        expect(typeof r[key], key).toBe('number');
        expect(r[key], key).toBeGreaterThan(0);
      }
      expect(r.mb_per_s).toBeCloseTo((r.msgs_per_s * 1024) / 1e6, 6);
    }
    expect(stderr).toContain('seed 5');
    expect(stderr).toMatch(/^1 KiB depth 4: UDS ×\d+\.\d\d the msgs\/s of TCP/m);
    if (linux) {
      expect(stderr).toMatch(/uds-abstract @udsvstcp-[0-9a-f]{16}/);
      expect(stderr).toMatch(/^1 KiB depth 4: UDS abstract ×\d+\.\d\d the msgs\/s of TCP/m);
    }
  });

  it('Ctrl-C ends it as SIGINT does (the shell says 130), its server gone and TMPDIR empty; the help says so', async () => {
    const tmpdir = join(tmp.dir, 'tmp');
    await mkdir(tmpdir);
    const child = spawn(process.execPath, [BIN, 'run', '--duration', '60s'], { env: { ...process.env, NO_COLOR: '1', TMPDIR: tmpdir }, stdio: ['ignore', 'ignore', 'pipe'] });
    /** @type {Promise<{ code: number | null, signal: string | null }>} */
    const closed = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (t) => { stderr += t; });
    expect(await waitFor(() => /echo server pid \d+/.test(stderr), { timeoutMs: 20_000, everyMs: 20 }), stderr).toBe(true);
    const server = Number(/echo server pid (\d+)/.exec(stderr)?.[1]);
    child.kill('SIGINT');
    expect(await closed).toEqual({ code: null, signal: 'SIGINT' }); // 128 + 2 = 130 in a shell
    const gone = () => { try { process.kill(server, 0); return false; } catch { return true; } };
    expect(await waitFor(gone, { timeoutMs: 10_000, everyMs: 20 })).toBe(true);
    expect(await waitFor(() => readdirSync(tmpdir).length === 0, { timeoutMs: 10_000, everyMs: 20 }), readdirSync(tmpdir).join(', ')).toBe(true);
    const help = await callMain(['run', '--help']);
    expect(help.stdout).toMatch(/Exit codes: 0 every trial ok; 1 a trial failed; 2 bad input \(nothing started\);\s+130, 143, 129 interrupted by SIGINT \(Ctrl-C\)/);
  }, 60_000);
});
