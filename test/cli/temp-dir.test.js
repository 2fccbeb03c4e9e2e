/**
 * The temp dir (TMPDIR) holds the server's socket file and nginx's files: a
 * relative or missing one is refused before anything is created, with one
 * line naming TMPDIR, exit 2. A relative TMPDIR used to leave a failed
 * results directory behind (the proxy workload's nginx config could not
 * name a relative socket path).
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLineUsageError, runCli } from '../helpers/cli.js';
import { useTempDir } from '../helpers/temp.js';

const tmp = useTempDir();

describe('a TMPDIR that is not an absolute path to a directory', () => {
  it('relative, with a proxy sweep: exit 2 naming TMPDIR, no results directory made', async () => {
    const cwd = join(tmp.dir, 'relative');
    await mkdir(join(cwd, 'rel'), { recursive: true });
    const result = await runCli(['sweep', 'myhro-2017-nginx', '--test', '--out', 'results'], { cwd, env: { TMPDIR: 'rel' } });
    expectOneLineUsageError(result, 'udsvstcp: error: TMPDIR "rel" is not an absolute path; the temp dir holds the server\'s socket file');
    expect(existsSync(join(cwd, 'results'))).toBe(false);
    expect(await readdir(join(cwd, 'rel'))).toEqual([]);
  });

  it.each([
    ['run', ['run', '--packets', '100']],
    ['serve', ['serve']],
    ['sweep --resume', ['sweep', '--resume', 'anything']],
  ])('missing, with %s: exit 2 naming TMPDIR before anything starts', async (_, args) => {
    const missing = join(tmp.dir, 'no-such-dir');
    expectOneLineUsageError(await runCli(args, { env: { TMPDIR: missing } }), `udsvstcp: error: TMPDIR ${missing} does not exist`);
    expect(existsSync(missing)).toBe(false);
  });
});
