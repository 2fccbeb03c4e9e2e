/**
 * nginx's guard (lib/fixture/guard.js): it only waits while nginx serves, and
 * however it ends, nginx does not outlive it. (That nginx does not outlive
 * us, SIGKILL included, is test/cli/sigkill-leftovers.test.js.) Needs nginx
 * (CI installs it).
 */
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findNginx, startNginx } from '../../lib/fixture/nginx.js';
import { readProcStat } from '../../lib/fixture/proc-stat.js';
import { get, startHttpUpstream } from '../helpers/http-upstream.js';
import { waitFor } from '../helpers/wait.js';

/** @type {Awaited<ReturnType<typeof startHttpUpstream>>} */
let app;
/** @type {import('../../lib/fixture/nginx.js').NginxProcess} */
let nginx;
beforeEach(async () => {
  app = await startHttpUpstream();
  nginx = await startNginx({ binary: findNginx(), listen: [{ upstream: app.tcp }, { upstream: app.uds }] });
});
afterEach(async () => {
  await nginx?.stop();
  await app?.close();
});

/** @param {number} pid */
const gone = (pid) => { const s = readProcStat(pid); return s === null || s.state === 'Z'; };

describe('nginx\'s guard', () => {
  it('only waits while nginx serves: no CPU time of its own', async () => {
    const cpu = () => { const s = readProcStat(nginx.guardPid); return s ? s.utime + s.stime : NaN; };
    const before = cpu();
    for (let i = 0; i < 10; i++) await Promise.all(Array.from({ length: 20 }, (_, j) => get(nginx.ports[j % 2])));
    expect(cpu()).toBe(before);
    expect(readProcStat(nginx.pid)?.ppid).toBe(nginx.guardPid);
  });

  it('killed (SIGKILL): nginx and its worker are killed from here, and nginx reads as gone', async () => {
    const workers = nginx.workerPids();
    process.kill(nginx.guardPid, 'SIGKILL');
    await nginx.exited;
    expect(nginx.alive()).toBe(false);
    expect(await waitFor(() => [nginx.pid, ...workers].every(gone), { timeoutMs: 10_000, everyMs: 20 })).toBe(true);
    await nginx.stop();
    expect(existsSync(nginx.privateDir)).toBe(false);
  });

  it('sent SIGTERM: it kills nginx\'s group and removes its private directory', async () => {
    const workers = nginx.workerPids();
    process.kill(nginx.guardPid, 'SIGTERM');
    await nginx.exited;
    expect(await waitFor(() => [nginx.pid, ...workers, nginx.guardPid].every(gone), { timeoutMs: 10_000, everyMs: 20 })).toBe(true);
    expect(await waitFor(() => !existsSync(nginx.privateDir), { timeoutMs: 10_000, everyMs: 20 })).toBe(true);
  });
});
