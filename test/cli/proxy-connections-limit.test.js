/**
 * More proxy connections than nginx could hold within the open-file limit it
 * inherits: exit 2 before anything starts, one line naming the flag, the
 * files needed, the limit and the most connections that fit. The limit is
 * lowered for the child only (`ulimit -n` in a shell that then execs node).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkNginxConnections } from '../../lib/fixture/nginx.js';
import { BIN, expectOneLineUsageError, makeTempDir, runScript } from '../helpers/cli.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => tmp.remove());

/**
 * udsvstcp with at most `files` open files (soft and hard).
 * @param {number} files
 * @param {string[]} args
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function runLimited(files, args) {
  return runScript(BIN, args, { prefix: ['sh', '-c', `ulimit -n ${files} && exec "$0" "$@"`], env: { TMPDIR: tmp.dir } });
}

describe('proxy connections beyond the open-file limit', () => {
  it('run --connections: exit 2, naming the flag, the limit and the most that fit', async () => {
    const result = await runLimited(1500, ['run', '--workload', 'proxy', '--connections', '1024']);
    expectOneLineUsageError(result, /^udsvstcp: error: --connections 1024: nginx would need 4288 open files \(.*\), over the open-file limit of 1500 it inherits \(ulimit -Hn\); use --connections 327 or less, or raise the limit$/m);
  });

  it('sweep --depths: exit 2 before the results directory exists', async () => {
    const out = join(tmp.dir, 'out');
    const result = await runLimited(1500, ['sweep', '--workload', 'proxy', '--depths', '10,400', '--out', out]);
    expectOneLineUsageError(result, /^udsvstcp: error: --depths 400: nginx would need 1792 open files .* limit of 1500 .*; use --depths 327 or less/);
    expect(existsSync(out)).toBe(false);
  });

  it('as many as fit: accepted (the rule, for the limit the two cases above inherit)', () => {
    expect(() => checkNginxConnections(327, '--connections', { limit: 1500 })).not.toThrow();
    expect(() => checkNginxConnections(328, '--connections', { limit: 1500 })).toThrow(/^--connections 328: .*; use --connections 327 or less/);
  });
});
