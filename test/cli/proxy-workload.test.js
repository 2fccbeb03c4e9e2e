/**
 * The proxy workload through the real CLI: `run --workload proxy` starts the
 * HTTP server and a real nginx in front of it, measures nginx's upstream
 * over TCP and over UDS, and leaves nothing running or on disk. Each child
 * gets a fresh TMPDIR, so what it leaves behind is in plain sight. Without
 * --keepalive (a new upstream connection per request), through the binary:
 * test/cli/sigkill-leftovers; nginx's two configurations at work:
 * test/integration/nginx-proxy; a --nginx that is not there:
 * test/unit/bad-input. Needs nginx (CI installs it).
 */
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callMain, makeTempDir } from '../helpers/cli.js';
import { processesMentioning } from '../helpers/processes.js';
import { expectMechanismFigures } from '../helpers/mechanism.js';
import { expectPinnedRunKeys } from '../helpers/schema.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());


/**
 * `udsvstcp run --workload proxy …` with a TMPDIR of its own.
 * @param {string} name
 * @param {string[]} flags
 */
async function runProxy(name, flags) {
  const tmpdir = join(tmp.dir, name);
  await mkdir(tmpdir);
  const result = await callMain(['run', '--workload', 'proxy', ...flags], { env: { TMPDIR: tmpdir } });
  return { ...result, tmpdir };
}

/**
 * Nothing of the run is left: no process mentions its TMPDIR, and the directory is empty.
 * @param {string} tmpdir
 */
async function expectNothingLeft(tmpdir) {
  expect(processesMentioning(tmpdir)).toEqual([]);
  expect(await readdir(tmpdir)).toEqual([]);
}

describe('udsvstcp run --workload proxy', () => {
  it('--keepalive --json: exits 0 with an nginx CPU column for both upstreams, nginx keeping its upstream connections, a record per transport with the keys test/fixtures/schema pins, and stops nginx and the server', async () => {
    const { code, stdout, stderr, tmpdir } = await runProxy('keepalive', ['--keepalive', '--connections', '2', '--duration', '250ms', '--warmup', '10ms', '--json']); // nginx's CPU comes in 10 ms clock ticks: 250 ms gives each upstream some
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/^nginx: \/\S+\/nginx \(nginx\/\d+\.\d+\.\d+; from PATH\)$/m); // which nginx ran
    expect(stderr).toMatch(/nginx pid \d+ \(keep-alive upstream connections\): 127\.0\.0\.1:\d+ → tcp 127\.0\.0\.1:\d+, 127\.0\.0\.1:\d+ → uds \S+\/http\.sock; http server pid \d+/);
    const header = stderr.split('\n').find((line) => line.startsWith('transport'));
    expect(header?.split(/\s{2,}/)).toContain('nginx');
    for (const transport of ['tcp', 'uds']) expect(stderr).toMatch(new RegExp(`^${transport} +64 B +2 .* ok$`, 'm'));
    expect(stderr).toMatch(/64 B connections 2: UDS ×\d+\.\d\d the req\/s of TCP .*nginx CPU µs\/req ×\d+\.\d\d/);
    const records = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(records.map((r) => r.transport).sort()).toEqual(['tcp', 'uds']);
    for (const r of records) {
      expectPinnedRunKeys(r, 'proxy');
      expectMechanismFigures(r);
    }
    await expectNothingLeft(tmpdir);
  });
});
