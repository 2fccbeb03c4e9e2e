import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, makeTempDir, runCli, startServeCli } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { expectMechanismFigures } from '../helpers/mechanism.js';
import { expectPinnedRunKeys } from '../helpers/schema.js';

/** @param {string} stdout */
const lines = (stdout) => stdout.trim().split('\n').map((line) => JSON.parse(line));

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => tmp.remove());

describe('udsvstcp run', () => {
  it('starts its own server and prints one JSON record per trial with exactly the keys test/fixtures/schema pins', async () => {
    const { code, stdout, stderr } = await runCli(['run', '--size', '1k', '--depth', '4', '--packets', '2000', '--warmup', '200', '--seed', '5', '--json']);
    expect(code, stderr).toBe(0);
    const records = lines(stdout);
    expect(records.map((r) => r.transport).sort()).toEqual(['tcp', 'uds']);
    for (const r of records) {
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
    expect(stderr).toMatch(/UDS ×\d+\.\d\d the msgs\/s of TCP/);
  });

  it('measures a running `serve` given as --tcp and --uds, leaving server figures empty', async () => {
    const serve = startServeCli(['--uds', join(tmp.dir, 'echo.sock')]);
    try {
      const info = await serve.ready;
      const { code, stdout, stderr } = await runCli(['run', '--tcp', `${info.tcp.host}:${info.tcp.port}`, '--uds', info.uds.path, '--size', '64', '--depth', '1', '--packets', '300', '--warmup', '50', '--json']);
      expect(code, stderr).toBe(0);
      const records = lines(stdout);
      expect(records).toHaveLength(2);
      for (const r of records) {
        expect(r.status).toBe('ok');
        expect(r.server_cpu_us_per_msg).toBeNull();
        expect(r.server_elu).toBeNull();
      }
      expect(stderr).toContain('server not ours');
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });

  it('interleaves transports, alternating the order run by run', async () => {
    const { code, stdout } = await runCli(['run', '--size', '64', '--packets', '100', '--warmup', '0', '--runs', '3', '--json']);
    expect(code).toBe(0);
    expect(lines(stdout).map((r) => r.transport)).toEqual(['tcp', 'uds', 'uds', 'tcp', 'tcp', 'uds']);
  });

  it('alternates blocks of both transports in one trial and prints the paired ratio with its interval', async () => {
    const one = await runCli(['run', '--size', '64', '--depth', '4', '--duration', '150ms', '--warmup', '30ms', '--json']);
    expect(one.code, one.stderr).toBe(0);
    const [a, b] = lines(one.stdout);
    expect(a.blocks).toBe(b.blocks);
    expect(a.block_packets).toBe(b.block_packets);
    expect(a.blocks).toBeGreaterThanOrEqual(4);
    expect(a.packets).toBe(b.packets); // blocks of equal length, alternating
    expect(one.stderr).toMatch(/64 B depth 4: UDS ×\d+\.\d\d the msgs\/s of TCP \(95 % CI \d+\.\d\d–\d+\.\d\d(, not significant)?\);.*\[interval from the block pairs of one process \(batch means\)/);
    const three = await runCli(['run', '--size', '64', '--packets', '400', '--warmup', '40', '--runs', '3']);
    expect(three.code, three.stderr).toBe(0);
    expect(three.stderr).toMatch(/UDS ×\d+\.\d\d the msgs\/s of TCP \(95 % CI \d+\.\d\d–\d+\.\d\d(, not significant)?\);.*\[interval from 3 runs\]/);
  });

  it('--nagle leaves Nagle on and says so in the header line', async () => {
    const { code, stderr } = await runCli(['run', '--transport', 'tcp', '--packets', '200', '--warmup', '0', '--nagle']);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/, TCP noDelay false\n/);
  });

  it('runs one transport when asked, for a time', async () => {
    const { code, stdout } = await runCli(['run', '--transport', 'uds', '--duration', '200ms', '--warmup', '50ms', '--depth', '8', '--json']);
    expect(code).toBe(0);
    const [record, ...rest] = lines(stdout);
    expect(rest).toHaveLength(0);
    expect(record.transport).toBe('uds');
    expect(record.elapsed_ms).toBeGreaterThanOrEqual(200);
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
    const help = await runCli(['run', '--help']);
    expect(help.stdout).toMatch(/Exit codes: 0 every trial ok; 1 a trial failed; 2 bad input \(nothing started\);\s+130, 143, 129 interrupted by SIGINT \(Ctrl-C\)/);
  }, 60_000);

  it('a failing trial is exit 1 with one line naming what failed, and no stack', async () => {
    const serve = startServeCli(['--uds', join(tmp.dir, 'gone.sock')]);
    const info = await serve.ready;
    serve.child.kill('SIGTERM');
    await serve.exited;
    const { code, stderr } = await runCli(['run', '--uds', info.uds.path, '--packets', '10']);
    expect(code).toBe(1);
    expect(stderr).toContain(`udsvstcp: uds trial failed: cannot connect to uds ${info.uds.path}: ENOENT (is the echo server running?)`);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
