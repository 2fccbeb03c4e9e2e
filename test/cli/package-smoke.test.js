import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/cli.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

describe('the published package', () => {
  it('installs from its tarball and runs `udsvstcp sweep quick --test` with the files it ships', async () => {
    // one pack: its --json says the tarball's name and every file it ships
    const [packed] = JSON.parse((await run(npm, ['pack', '--json', '--pack-destination', tmp.dir], { cwd: ROOT })).stdout);
    const tarball = join(tmp.dir, packed.filename);
    const app = join(tmp.dir, 'app');
    await import('node:fs/promises').then((fs) => fs.mkdir(app));
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'smoke', version: '1.0.0', private: true }));
    await run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball], { cwd: app, timeout: 120_000 });
    const bin = join(app, 'node_modules', '.bin', 'udsvstcp');
    const out = join(app, 'results');
    const { stderr } = await run(bin, ['sweep', 'quick', '--test', '--no-probe', '--out', out], { cwd: app, env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 });
    expect(stderr).toContain('UDS/TCP msgs/s');
    const trials = await readFile(join(out, 'trials.csv'), 'utf8');
    expect(trials.trim().split('\n')).toHaveLength(1 + 2 * 2); // header + 2 runs × 2 transports
    // the report's dependencies ship too: the sweep wrote its report with them
    for (const file of ['report.html', 'results.xlsx', 'chart-msgs_per_s.svg', 'summary.md']) expect(stderr).toContain(join(out, file));
    expect(stderr).not.toContain('the report could not be made');
    // what `npx udsvstcp` downloads stays light: at most 150 packages (460 with ExcelJS and @stdlib), as the install's lockfile lists them
    const installed = Object.keys(JSON.parse(await readFile(join(app, 'package-lock.json'), 'utf8')).packages).filter((path) => path.startsWith('node_modules/'));
    expect(installed).toContain('node_modules/udsvstcp');
    expect(installed.length).toBeLessThanOrEqual(150);
    const shipped = packed.files.map((/** @type {{ path: string }} */ f) => f.path);
    expect(shipped).toEqual(expect.arrayContaining(['bin/udsvstcp.js', 'lib/trial/worker.js', 'sweeps/default.json', 'sweeps/quick.json', 'sweeps/nicmcd-2014.json', 'sweeps/README.md', 'README.md', 'docs/cli.md', 'docs/results.md', 'LICENSE', 'package.json']));
    expect(shipped.some((/** @type {string} */ p) => p.startsWith('test/'))).toBe(false);
    // the licence package.json names is the one LICENSE holds
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
    expect((await readFile(join(ROOT, 'LICENSE'), 'utf8')).split('\n')[0]).toBe(`${pkg.license} License`);
  }, 180_000);
});
