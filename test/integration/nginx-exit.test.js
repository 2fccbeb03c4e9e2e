/**
 * A process that dies of an uncaught error with nginx still running takes
 * nginx (master and workers) and its private directory with it.
 * Needs nginx (CI installs it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findNginx } from '../../lib/fixture/nginx.js';
import { readProcStat } from '../../lib/fixture/proc-stat.js';
import { exists } from '../helpers/http-upstream.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Gone, or a zombie waiting for init to reap it (orphans are init's to reap,
 * a moment after they die): bounded wait, 2 s at most.
 * @param {number} pid
 */
function dead(pid) {
  return waitFor(() => !exists(pid) || readProcStat(pid)?.state === 'Z', { timeoutMs: 2000, everyMs: 20 });
}

const SCRIPT = `
import http from 'node:http';
import { startNginx } from './lib/fixture/nginx.js';
const app = http.createServer((q, r) => r.end('ok')).listen(0, '127.0.0.1');
await new Promise((resolve) => app.once('listening', resolve));
const nginx = await startNginx({ binary: process.argv[1], listen: [{ upstream: { transport: 'tcp', host: '127.0.0.1', port: app.address().port } }] });
console.log(JSON.stringify({ pid: nginx.pid, workers: nginx.workerPids(), privateDir: nginx.privateDir }));
throw new Error('boom');
`;

describe('nginx when its parent dies', () => {
  it('is killed, workers too, and its private directory removed, on an uncaught error', async () => {
    const binary = findNginx(); // no nginx: fails here, naming --nginx and how to install it
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT, binary], { cwd: new URL('../..', import.meta.url), encoding: 'utf8', timeout: 20_000 });
    expect(child.stderr).toContain('boom');
    const { pid, workers, privateDir } = JSON.parse(child.stdout);
    expect(workers).toHaveLength(1);
    expect(existsSync(privateDir)).toBe(false);
    expect(await dead(pid)).toBe(true);
    for (const worker of workers) expect(await dead(worker)).toBe(true);
  });
});
