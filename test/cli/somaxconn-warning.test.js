/**
 * net.core.somaxconn below the connections a trial opens at once: run and
 * sweep say so on stderr before measuring, and the report among its
 * warnings. The CLI runs in a network namespace of its own (unshare --net,
 * loopback up) whose somaxconn is lowered to 16, so the machine's is never
 * touched. Needs root and util-linux's unshare: without them these tests
 * fail saying so. No warning where somaxconn holds the connections, and
 * the warning's words: test/unit/backlog.test.js.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runScript } from '../helpers/cli.js';
import { useTempDir } from '../helpers/temp.js';

const tmp = useTempDir();

/**
 * udsvstcp in a fresh network namespace whose net.core.somaxconn is `somaxconn`.
 * @param {number} somaxconn
 * @param {string[]} args
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function runWithSomaxconn(somaxconn, args) {
  if (process.getuid?.() !== 0 || spawnSync('unshare', ['--version']).status !== 0) {
    throw new Error(`these tests lower net.core.somaxconn in a network namespace of their own: run them as root with util-linux's unshare (CI does); here uid ${process.getuid?.()}`);
  }
  const script = `ip link set lo up && echo ${somaxconn} > /proc/sys/net/core/somaxconn && exec "$0" "$@"`;
  return runScript(BIN, args, { prefix: ['unshare', '--net', 'sh', '-c', script], env: { TMPDIR: tmp.dir } });
}

const WARNING = /^warning: net\.core\.somaxconn 16 caps the server's listen backlog below the 32 connections a trial opens at once \((--connections|--depths|connections) 32\): past 16 waiting, a UDS connect fails at once \(EAGAIN\) where TCP's waits for a SYN retry; raise it \(sudo sysctl -w net\.core\.somaxconn=511\)/m;

describe('somaxconn below the connections a trial opens', () => {
  it('run: the warning names --connections before anything is measured', async () => {
    const { code, stderr } = await runWithSomaxconn(16, ['run', '--workload', 'http', '--connections', '32', '--transport', 'tcp', '--duration', '10ms', '--warmup', '0']);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(WARNING);
    expect(stderr.match(WARNING)?.[1]).toBe('--connections');
    expect(stderr.indexOf('warning: net.core.somaxconn')).toBeLessThan(stderr.indexOf('transport  size'));
  });

  it('sweep: on stderr naming --depths, and among the report\'s warnings', async () => {
    const out = join(tmp.dir, 'out');
    const { code, stdout, stderr } = await runWithSomaxconn(16, ['sweep', '--workload', 'http', '--test', '--depths', '32', '--sizes', '64', '--runs', '1', '--duration', '10ms', '--warmup', '0', '--transports', 'tcp', '--no-probe', '--no-report', '--json', '--out', out]);
    expect(code, stderr).toBe(0);
    expect(stderr.match(WARNING)?.[1]).toBe('--depths');
    const report = JSON.parse(stdout);
    expect(report.warnings.some((/** @type {string} */ w) => /^net\.core\.somaxconn 16 caps .* \(connections 32\)/.test(w))).toBe(true);
  });
});
