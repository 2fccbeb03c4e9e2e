/**
 * A results directory never names what runs: `sweep --resume` of a proxy
 * sweep runs the nginx of --nginx or PATH, never the one meta.json records
 * (a directory another user could write would otherwise run their script as
 * whoever resumes it); a recorded one that differs is said on stderr and in
 * meta.json. A spec file cannot name nginx either. The nginx that runs is
 * printed, path and version, and recorded; its config is found though --out
 * is relative. Needs nginx (CI installs it).
 */
import { existsSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { findNginx } from '../../lib/fixture/nginx.js';
import { callMain, expectOneLineUsageError, runCli } from '../helpers/cli.js';
import { callMainLeavingNothing } from '../helpers/in-process.js';
import { copyResultsDir, useTempDir } from '../helpers/temp.js';
import { readMetaJson, readTrialRows } from '../helpers/sweeps.js';

const tmp = useTempDir();
/** a proxy sweep: one run of the proxy workload's test settings at one connection, without report files (none is read here) */
let sweepDir = '';
/** @type {Awaited<ReturnType<typeof runCli>>} */
let first;
/** the nginx on PATH (or in /usr/sbin), which every sweep here runs */
let nginx = '';
beforeAll(async () => {
  nginx = findNginx();
  sweepDir = join(tmp.dir, 'proxy');
  // a relative --out: nginx, run in its own directory, is given the config's absolute path
  first = await runCli(['sweep', '--workload', 'proxy', '--test', '--runs', '1', '--depths', '1', '--no-probe', '--no-report', '--out', 'proxy'], { cwd: tmp.dir });
  expect(first.code, first.stderr).toBe(0);
}, 90_000);

/**
 * A script that leaves a mark when run, then runs the real nginx (so a sweep that ran it would not notice).
 * @param {string} name
 */
async function plantScript(name) {
  const script = join(tmp.dir, `${name}.sh`);
  const mark = join(tmp.dir, `${name}.ran`);
  await writeFile(script, `#!/bin/sh\necho ran >> '${mark}'\nexec '${nginx}' "$@"\n`);
  await chmod(script, 0o755);
  return { script, mark };
}

describe('which nginx runs', () => {
  it('a proxy sweep prints the nginx it runs (path, version, where from) and records it in meta.json', async () => {
    expect(first.stderr).toMatch(new RegExp(`^nginx: ${nginx} \\(nginx/\\d+\\.\\d+\\.\\d+; from PATH\\)$`, 'm'));
    const meta = await readMetaJson(sweepDir);
    expect(meta.sessions[0].executables).toEqual({ nginx: { path: nginx, version: expect.stringMatching(/^nginx\/\d+\.\d+\.\d+$/), from: 'PATH' } });
    expect(meta.spec).not.toHaveProperty('nginx');
  });

  it('--resume never runs the nginx meta.json names: it runs the one on PATH, says so, and records both', async () => {
    const dir = await copyResultsDir(sweepDir, tmp.dir, 'planted');
    const { script, mark } = await plantScript('planted');
    // as a directory another user could write, or a copied one, may say; and no trial done, so nginx must start
    const meta = await readMetaJson(dir);
    meta.spec.nginx = script;
    if (meta.sessions[0].executables) meta.sessions[0].executables.nginx.path = script;
    await writeFile(join(dir, 'meta.json'), JSON.stringify(meta, null, 2));
    for (const name of ['trials.csv', 'blocks.csv']) await writeFile(join(dir, name), (await readFile(join(dir, name), 'utf8')).split('\n')[0] + '\n');

    const { code, stderr } = await callMainLeavingNothing(['sweep', '--resume', dir, '--no-probe', '--no-report']);
    expect(code, stderr).toBe(0);
    expect(existsSync(mark)).toBe(false);
    expect(stderr).toMatch(new RegExp(`^note: nginx: meta\\.json records ${script} \\(nginx/[\\d.]+\\); this session runs ${nginx} \\(nginx/[\\d.]+\\) from PATH; a results directory never names what runs$`, 'm'));
    expect(stderr).toMatch(new RegExp(`^nginx: ${nginx} \\(nginx/[\\d.]+; from PATH\\)$`, 'm'));
    expect((await readTrialRows(dir)).every((row) => row.status === 'ok')).toBe(true);
    const after = await readMetaJson(dir);
    expect(after.sessions[1]).toMatchObject({
      kind: 'resume',
      executables: { nginx: { path: nginx, from: 'PATH' } },
      executables_changed: [expect.stringMatching(new RegExp(`^nginx: meta\\.json records ${script} .*; this session runs ${nginx} `))],
    });
  }, 90_000);

  it('--resume DIR --nginx PATH runs that nginx, though another was recorded (the flag is not a recorded setting)', async () => {
    const dir = await copyResultsDir(sweepDir, tmp.dir, 'flagged');
    const { script, mark } = await plantScript('flagged');
    const { code, stderr } = await callMainLeavingNothing(['sweep', '--resume', dir, '--nginx', script, '--no-probe', '--no-report']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`; this session runs ${script} (nginx/`);
    expect(stderr).toMatch(new RegExp(`^nginx: ${script} \\(nginx/[\\d.]+; from --nginx\\)$`, 'm'));
    expect(existsSync(mark)).toBe(true); // the one given on the command line
  }, 90_000);
});

describe('a spec file cannot name an executable', () => {
  it('"nginx" in a spec file: exit 2 naming the key, nothing run or made', async () => {
    const { script, mark } = await plantScript('spec');
    const spec = join(tmp.dir, 'with-nginx.json');
    await writeFile(spec, JSON.stringify({ workload: 'proxy', nginx: script, test: { runs: 1, duration: '40ms', warmup: '10ms' } }));
    const out = join(tmp.dir, 'spec-out');
    expectOneLineUsageError(await callMain(['sweep', spec, '--test', '--out', out]), `udsvstcp: error: ${spec}: "nginx" is not read from a spec file: the nginx binary comes only from --nginx or PATH`);
    expect(existsSync(mark)).toBe(false);
    expect(existsSync(out)).toBe(false);
  });

  it('"node" in a spec file, at the top or in its test block: exit 2 naming the key, nothing run or made', async () => {
    const { script, mark } = await plantScript('spec-node');
    for (const [name, body] of /** @type {[string, object][]} */ ([['top', { node: [script] }], ['test', { test: { runs: 1, node: script } }]])) {
      const spec = join(tmp.dir, `with-node-${name}.json`);
      await writeFile(spec, JSON.stringify({ workload: 'echo', ...body }));
      const out = join(tmp.dir, `spec-node-out-${name}`);
      const where = name === 'top' ? spec : `${spec} "test"`;
      expectOneLineUsageError(await callMain(['sweep', spec, '--test', '--out', out]), `udsvstcp: error: ${where}: "node" is not read from a spec file: Node executables come only from --node`);
      expect(existsSync(out)).toBe(false);
    }
    expect(existsSync(mark)).toBe(false);
  });
});
