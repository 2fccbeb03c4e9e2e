import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { useTempDir } from '../helpers/temp.js';

const tmp = useTempDir();

/**
 * Run udsvstcp with the open-file limit (soft and hard) set by bash's ulimit.
 * @param {number} limit
 * @param {string[]} args
 * @returns {Promise<{ code: number | null, stderr: string }>}
 */
function runLimited(limit, args) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `ulimit -n ${limit} && exec "$@"`, 'bash', process.execPath, BIN, ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (t) => { stderr += t; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('a sweep under a low open-file limit', () => {
  it('writes its report too: the chart libraries load within ulimit -n 64', async () => {
    const out = join(tmp.dir, 'sweep');
    const result = await runLimited(64, ['sweep', 'quick', '--test', '--runs', '1', '--seed', '5', '--no-probe', '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/report could not be made/);
    for (const file of ['chart-msgs_per_s.svg', 'chart-uds-vs-tcp.svg', 'chart-cpu.svg', 'chart-rtt.svg', 'summary.md', 'report.html', 'results.xlsx']) {
      expect(existsSync(join(out, file)), file).toBe(true);
    }
  }, 100_000);
});
