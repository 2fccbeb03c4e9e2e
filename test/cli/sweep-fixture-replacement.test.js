/**
 * Real sweeps whose server becomes unusable after the first trial, while it
 * is still alive: its socket file deleted, or the server stopped (SIGSTOP).
 * One trial fails, the fixture is checked, killed and replaced (recorded in
 * meta.json), and every later trial succeeds. Echo's two faults share one
 * sweep: the socket deleted, then its replacement stopped. Needs nginx for proxy.
 */
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callMain, callMainWatched, makeTempDir } from '../helpers/cli.js';
import { readMetaJson, readTrialRows, writeTinySpec } from '../helpers/sweeps.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => tmp.remove());

/**
 * Run a sweep (main() in this process; its servers and trials are real processes) and, once its first trial is
 * recorded, do `fault` to its server.
 * @param {Record<string, unknown>} spec
 * @param {(server: { pid: number, uds: string }) => Promise<void> | void} fault
 */
async function sweepWithFault(spec, fault) {
  const out = join(tmp.dir, 'out');
  /** @type {{ pid: number, uds: string }[]} */
  const hit = [];
  const { code, stderr } = await callMainWatched(['sweep', await writeTinySpec(tmp.dir, spec), '--test', '--no-probe', '--no-report', '--out', out], (text) => {
    const pid = /(?:echo|http) server pid (\d+)/.exec(text)?.[1];
    const uds = /uds (\/[^\s;,]+)/.exec(text)?.[1];
    if (pid && uds && hit.length === 0 && text.includes('[1/')) {
      hit.push({ pid: Number(pid), uds });
      Promise.resolve(fault(hit[0])).catch(() => {});
    }
  });
  expect(hit, stderr).toHaveLength(1);
  const rows = await readTrialRows(out);
  const meta = await readMetaJson(out);
  return { code, stderr, rows, meta, server: hit[0] };
}

/**
 * One trial failed (both its rows), a replacement was recorded with why, and every trial after it is ok.
 * @param {Awaited<ReturnType<typeof sweepWithFault>>} result
 * @param {RegExp} reason
 */
function expectOneReplacement({ code, stderr, rows, meta }, reason) {
  expect(code, stderr).toBe(1); // a trial failed
  expect(meta.status).toBe('complete');
  expect(rows).toHaveLength(6); // 3 trials of 2 transports: one before the fault, the one it fails, one after
  const failed = rows.map((r, i) => ({ r, i })).filter(({ r }) => r.status === 'error');
  expect(failed.map(({ r }) => r.error), stderr).toHaveLength(2);
  expect(failed[1].i - failed[0].i).toBe(1);
  expect(rows.length - failed[1].i - 1, 'a trial after the failed one').toBeGreaterThan(0);
  expect(rows.slice(failed[1].i + 1).every((r) => r.status === 'ok')).toBe(true);
  expect(meta.fixture_replacements).toEqual([expect.objectContaining({ session: 0, replacement: 1, reason: expect.stringMatching(reason), after: expect.objectContaining({ run: Number(failed[0].r.run) }) })]);
  expect(meta.design.failure_bound).toMatch(/stops .* after 5 failed trials in a row/);
  expect(stderr).toMatch(/replacing the server \(replacement 1 of at most 3 in this session\)/);
}

describe('a sweep replaces a server that is alive but unusable', () => {
  it('echo: its socket file deleted mid-sweep costs one trial; then its replacement stopped (SIGSTOP) is found by the probe timeout and killed, costing one more', async () => {
    const out = join(tmp.dir, 'out');
    /** @type {{ pid: number, uds: string }[]} the first server, then its replacement */
    const hit = [];
    // 5 trials: one before each fault, the ones they fail, and one after the last
    const { code, stderr } = await callMainWatched(['sweep', await writeTinySpec(tmp.dir, { sizes: [1, 64, 256, 1024, 4096], runs: 1, timeout: '300ms' }), '--test', '--no-probe', '--no-report', '--out', out], (text) => {
      const servers = [...text.matchAll(/echo server pid (\d+)[^\n]*uds (\/[^\s;,]+)/g)].map((m) => ({ pid: Number(m[1]), uds: m[2] }));
      if (hit.length === 0 && servers.length === 1 && text.includes('[1/')) {
        hit.push(servers[0]);
        unlink(servers[0].uds).catch(() => {});
      } else if (hit.length === 1 && servers.length === 2 && text.slice(text.lastIndexOf('echo server pid')).includes('[3/')) {
        hit.push(servers[1]);
        process.kill(servers[1].pid, 'SIGSTOP');
      }
    });
    expect(hit, stderr).toHaveLength(2);
    const rows = await readTrialRows(out);
    const meta = await readMetaJson(out);
    expect(code, stderr).toBe(1); // trials failed
    expect(meta.status).toBe('complete');
    expect(rows).toHaveLength(10);
    const failed = rows.map((r, i) => ({ r, i })).filter(({ r }) => r.status === 'error');
    // a trial ok, the one the deletion fails, one ok on the replacement, the one its SIGSTOP fails, one ok after
    expect(rows.map((r) => r.status), stderr).toEqual(['ok', 'ok', 'error', 'error', 'ok', 'ok', 'error', 'error', 'ok', 'ok']);
    expect(failed[0].r.error).toMatch(/ENOENT/);
    expect(meta.fixture_replacements).toEqual([
      expect.objectContaining({ session: 0, replacement: 1, reason: expect.stringMatching(/^the socket file .*echo\.sock was deleted$/), after: expect.objectContaining({ run: Number(failed[0].r.run) }) }),
      expect.objectContaining({ session: 0, replacement: 2, reason: expect.stringMatching(/^the echo server at (tcp|uds) .*: no answer to a 4-byte echo within 2000 ms$/), after: expect.objectContaining({ run: Number(failed[2].r.run) }) }),
    ]);
    expect(meta.design.failure_bound).toMatch(/stops .* after 5 failed trials in a row/);
    expect(stderr).toMatch(/replacing the server \(replacement 1 of at most 3 in this session\)/);
    expect(stderr).toMatch(/replacing the server \(replacement 2 of at most 3 in this session\)/);
    expect(() => process.kill(hit[1].pid, 0)).toThrow(/ESRCH/); // not left stopped
  }, 60_000);

  it('proxy: the app server\'s socket deleted behind nginx costs one trial', async () => {
    const result = await sweepWithFault({ workload: 'proxy', sizes: [64], depths: [1], runs: 3, packets: undefined, duration: '20ms', warmup: '0ms', timeout: '1s' }, (server) => unlink(server.uds));
    expectOneReplacement(result, /^the socket file .*http\.sock was deleted$/);
    expect(result.stderr.match(/nginx pid \d+/g)).toHaveLength(2); // nginx replaced with its app server
  }, 60_000);

  it('sweep --help states the health check and the bound on failed trials', async () => {
    const { code, stdout } = await callMain(['sweep', '--help']);
    expect(code).toBe(0);
    const text = stdout.replace(/\s+/g, ' ');
    expect(text).toContain('One that fails is killed and replaced (at most 3 times per sweep or resume; meta.json fixture_replacements says why)');
    expect(text).toContain('the sweep stops (meta.json failed; --resume continues) after 5 failed trials in a row or a 4th replacement, and --precision adds no run to a group whose last trial failed');
  });
});
