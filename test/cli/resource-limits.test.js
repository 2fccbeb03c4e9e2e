import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';

/** A native frame as V8 prints it under a fatal error: ` 11: 0x195e376 [/usr/bin/node]`. */
const FRAME = /0x[0-9a-f]+ +\[/;

/**
 * Run the binary under a shell limit, as a user would: bash -c 'ulimit …; exec node udsvstcp …'.
 * @param {string} limit e.g. 'ulimit -n 30'
 * @param {string[]} args
 * @returns {Promise<{ code: number | null, signal: string | null, stdout: string, stderr: string }>}
 */
function runUnder(limit, args) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `${limit} && exec "$@"`, 'bash', process.execPath, BIN, ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (t) => { stdout += t; });
    child.stderr.setEncoding('utf8').on('data', (t) => { stderr += t; });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const RUN = ['run', '--size', '64', '--depth', '1', '--packets', '1000'];

describe('resource limits end the command with one line naming the ulimit', () => {
  it('too few file descriptors (ulimit -n 24): one line naming ulimit -n and its soft limit, exit 1, no stack', async () => {
    // Node 20 runs out while it loads the modules, Node 22 and later when it spawns the server: the same one line
    const { code, signal, stdout, stderr } = await runUnder('ulimit -n 24', RUN);
    expect(signal, stderr).toBeNull();
    expect(code, stderr).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n'), stderr).toHaveLength(1);
    expect(stderr).toMatch(/^udsvstcp: error: .*\bEMFILE\b.*too many open files.*the open-file limit is ulimit -n 24: raise it, e\.g\. ulimit -n 4096\)\n$/);
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it('an address-space limit too small for V8 (ulimit -v 1400000) is refused before it can abort natively: exit 2, no native stack', async () => {
    const { code, signal, stdout, stderr } = await runUnder('ulimit -v 1400000', RUN);
    expect(signal, stderr).toBeNull();
    expect(code, stderr).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n'), stderr).toHaveLength(1);
    expect(stderr).toMatch(/^udsvstcp: error: the address-space limit \(ulimit -v 1400000 KiB\) is below 2000000 KiB, .*; raise it: ulimit -v 2000000, or unlimited\n$/);
    expect(stderr).not.toMatch(FRAME);
    expect(stderr).not.toContain('server pid');
  });
});
