/**
 * Nothing outlives a SIGKILLed `run` or `sweep` of the proxy workload: nginx
 * (master and worker), its guard, the app server and a trial process in
 * flight all end, and TMPDIR is left empty, within a bounded wait. A SIGKILL
 * runs no exit hook: nginx's guard sees its channel close and kills the
 * group; the Node children see theirs close. Needs nginx (CI installs it).
 */
import { spawn } from 'node:child_process';
import { mkdir, readdir } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { descendants, isRunning, trackProcesses } from '../helpers/processes.js';
import { waitFor } from '../helpers/wait.js';

const ctx = trackProcesses();

/**
 * Start udsvstcp with a TMPDIR of its own; once `ready` holds for its
 * processes (and what it wrote on stderr), note them all, SIGKILL it, and say what was running.
 * @param {string[]} args
 * @param {(processes: import('../helpers/processes.js').ProcessSeen[], stderr: string) => boolean} ready
 */
async function killWhen(args, ready) {
  const tmpdir = join(ctx.tmp.dir, 'tmp');
  await mkdir(tmpdir);
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1', TMPDIR: tmpdir }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text) => { stderr += text; });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const pid = /** @type {number} */ (child.pid);
  const found = await waitFor(() => ready((ctx.seen = descendants(pid)), stderr), { timeoutMs: 60_000, everyMs: 20 });
  expect(found, stderr).toBe(true);
  child.kill('SIGKILL');
  await exited;
  return { tmpdir, stderr };
}

/** @param {string} text */
const has = (text) => (/** @type {import('../helpers/processes.js').ProcessSeen[]} */ processes) => processes.some((p) => p.cmdline.includes(text));

describe('a SIGKILLed udsvstcp leaves nothing running', () => {
  it('run --workload proxy: nginx and its worker, its guard and the app server end, and TMPDIR is empty', async () => {
    // measuring: once it has said which nginx runs, with a new upstream connection per request (without --keepalive)
    const { tmpdir } = await killWhen(['run', '--workload', 'proxy', '--connections', '2', '--duration', '60s', '--warmup', '10ms'],
      (processes, stderr) => has('nginx: worker')(processes) && has('server-main.js')(processes)
        && /^nginx: \/\S+\/nginx \(nginx\/\d+\.\d+\.\d+; from PATH\)$/m.test(stderr)
        && /nginx pid \d+ \(a new upstream connection per request\): 127\.0\.0\.1:\d+ → tcp 127\.0\.0\.1:\d+, 127\.0\.0\.1:\d+ → uds \S+\/http\.sock; http server pid \d+/.test(stderr));
    expect(await waitFor(() => ctx.seen.every((p) => !isRunning(p)), { timeoutMs: 10_000, everyMs: 20 }), ctx.seen.filter(isRunning).map((p) => p.cmdline).join('\n')).toBe(true);
    expect(await waitFor(() => readdirSync(tmpdir).length === 0, { timeoutMs: 10_000, everyMs: 20 })).toBe(true);
    expect(await readdir(tmpdir)).toEqual([]);
  });

  it('sweep --workload proxy, mid-trial: nginx, its guard, the app server and the trial process end, and TMPDIR is empty', async () => {
    const out = join(ctx.tmp.dir, 'out');
    const { tmpdir } = await killWhen(['sweep', '--workload', 'proxy', '--test', '--depths', '1', '--no-probe', '--out', out],
      (processes) => has('nginx: worker')(processes) && has('trial/worker.js')(processes));
    expect(has('nginx: master')(ctx.seen) && has('server-main.js')(ctx.seen)).toBe(true);
    expect(await waitFor(() => ctx.seen.every((p) => !isRunning(p)), { timeoutMs: 10_000, everyMs: 20 }), ctx.seen.filter(isRunning).map((p) => p.cmdline).join('\n')).toBe(true);
    expect(await waitFor(() => readdirSync(tmpdir).length === 0, { timeoutMs: 10_000, everyMs: 20 })).toBe(true);
    expect(await readdir(tmpdir)).toEqual([]);
  });
});
