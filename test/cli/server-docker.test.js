/**
 * --server-docker through the real CLI, with a Docker daemon running (CI
 * starts one: .ci/run): `sweep myhro-2017-docker --test` runs the app server
 * in a real container, says so in its header, meta.json and report, measures
 * TCP (through the published port) and UDS (through the bind-mounted
 * directory), and leaves no container, image, volume or directory behind; a
 * sweep of the bridge variant killed with SIGKILL leaves its container, which
 * `--resume` removes, and the resumed sweep's nginx reaches the container's
 * address on docker0. With no daemon answering (DOCKER_HOST pointing nowhere)
 * the sweep falls back to the namespace emulation and says why: the same
 * sweep server-netns.test.js runs, so it says so there. Needs root, iproute2
 * and a Docker daemon: without them these tests fail saying so, never skip.
 * One test after another, as server-netns.test.js runs: each start removes
 * what killed sweeps left. The sweeps are one run, the bridge's of one
 * connection: what is tested is where the server runs and what is left, not
 * the figures (the first keeps the preset's 10 connections: nginx's CPU comes
 * in 10 ms ticks, and one connection's few requests often gave none).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDocker, probeDocker } from '../../lib/fixture/docker.js';
import { BIN, callMain, expectOneLineUsageError, makeTempDir } from '../helpers/cli.js';
import { needRootAndIp } from '../helpers/netns.js';
import { readFixtureRecord, readMetaJson, readTrialRows } from '../helpers/sweeps.js';
import { waitFor } from '../helpers/wait.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
/** @type {string} */
let docker;
beforeAll(async () => {
  tmp = await makeTempDir();
  needRootAndIp();
  const probed = probeDocker();
  if (!('path' in probed)) throw new Error(`the --server-docker tests need a running Docker daemon (CI starts one: .ci/run); here ${probed.reason}`);
  docker = probed.path;
});
afterAll(() => tmp?.remove());

/** @param {string[]} args */
const dockerSays = (args) => spawnSync(docker, args, { encoding: 'utf8', timeout: 30_000 }).stdout.split('\n').filter(Boolean);
/** Our containers (any state), images and volumes on the daemon. */
const ours = () => ({
  containers: dockerSays(['ps', '-a', '--filter', 'name=udsvstcp-', '--format', '{{.Names}}']),
  images: dockerSays(['images', 'udsvstcp-node', '--format', '{{.Repository}}:{{.Tag}}']),
  volumes: dockerSays(['volume', 'ls', '--filter', 'name=udsvstcp-', '--format', '{{.Name}}']),
});

/**
 * What a sweep's stderr says its container is.
 * @param {string} stderr
 */
function started(stderr) {
  const m = /http server pid \d+ in Docker container (udsvstcp-\d+-\d+-[0-9a-f]{6}) \(image (udsvstcp-node:\S+), Docker [^,]+, (\d+\.\d+\.\d+\.\d+) on docker0\): tcp ([^\s,]+)( \(published port\) → docker-proxy pid \d+ →)?[^,]*, uds (\S+) /.exec(stderr);
  if (!m) throw new Error(`no container line in:\n${stderr}`);
  const [, container, image, address, tcp, published, uds] = m;
  return { container, image, address, tcp, published: Boolean(published), uds, dir: uds.split('/vol/')[0] };
}

/** @param {ReturnType<typeof started>} what */
function expectGone(what) {
  const now = ours();
  expect(now.containers).not.toContain(what.container);
  expect(now.images).not.toContain(what.image);
  expect(now.volumes).toEqual([]);
  expect(existsSync(what.dir)).toBe(false);
}

describe('probeDocker', () => {
  it('asks again when DOCKER_HOST names another daemon: its answer is kept per client and daemon, not per client alone', () => {
    expect(probeDocker()).toMatchObject({ path: docker }); // the daemon here, and now in the cache
    const saved = process.env.DOCKER_HOST;
    process.env.DOCKER_HOST = 'unix:///nonexistent/udsvstcp-no-docker.sock';
    try {
      expect(probeDocker()).toMatchObject({ reason: expect.stringContaining('no Docker daemon answered') });
    } finally {
      if (saved === undefined) delete process.env.DOCKER_HOST;
      else process.env.DOCKER_HOST = saved;
    }
    expect(probeDocker()).toMatchObject({ path: docker });
  });
});

describe('sweep --server-docker with a Docker daemon', () => {
  it('myhro-2017-docker --test: a real container, TCP through the published port, UDS through the mounted directory, nothing left', async () => {
    const out = join(tmp.dir, 'docker');
    const { code, stderr } = await callMain(['sweep', 'myhro-2017-docker', '--test', '--runs', '1', '--no-probe', '--out', out]);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/^docker: real \(Docker [^,]+, the server in a container/m);
    const what = started(stderr);
    expect(what.published).toBe(true);
    expect(what.tcp).toMatch(/^127\.0\.0\.1:\d+$/);
    const rows = await readTrialRows(out);
    expect(rows.map((r) => `${r.transport} ${r.status}`).sort()).toEqual(['tcp ok', 'uds ok']);
    for (const row of rows) expect(Number(row.proxy_cpu_us_per_req)).toBeGreaterThan(0); // nginx's, and docker-proxy's for TCP
    const meta = await readMetaJson(out);
    expect(meta.spec).toMatchObject({ serverNetns: true, serverDocker: true, portProxy: true });
    expect(meta.design.docker).toMatch(/^real \(Docker /);
    expect(meta.design.server_network).toMatch(/real Docker container .* publishes on 127\.0\.0\.1/);
    expect(meta.sessions[0].executables.docker.version).toMatch(/^Docker /);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toMatch(/^docker: real \(Docker /m);
    expect(readFixtureRecord(out)).toMatchObject({ processes: [] });
    expect(readFixtureRecord(out).containers ?? []).toEqual([]); // nothing runs: no container named
    expectGone(what);
  }, 90_000);

  it('a bridge sweep killed with SIGKILL leaves its container; --resume removes it and its image (fixture.json) and completes, nginx reaching the container at its docker0 address, nothing left', async () => {
    const out = join(tmp.dir, 'killed');
    const child = spawn(process.execPath, [BIN, 'sweep', 'myhro-2017-docker-bridge', '--test', '--no-probe', '--no-report', '--runs', '1', '--depths', '1', '--out', out], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text) => { stderr += text; });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const ready = await waitFor(() => readFixtureRecord(out)?.containers?.length > 0, { timeoutMs: 60_000, everyMs: 20 });
    expect(ready, stderr).toBe(true);
    child.kill('SIGKILL');
    await exited;
    const [left] = readFixtureRecord(out).containers;
    expect(left.container).toMatch(new RegExp(`^udsvstcp-${child.pid}-`));
    expect(ours().containers).toContain(left.container); // nothing was there to remove it
    expect(ours().images).toContain(left.image);

    const resumed = await callMain(['sweep', '--resume', out, '--no-probe', '--no-report']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const note = resumed.stderr.split('\n').find((line) => line.includes('fixture.json'));
    expect(note).toMatch(/^note: ended what an earlier session of this sweep left behind \(fixture\.json\): /);
    expect(note).toContain(`container ${left.container}`);
    expect(note).toContain(`image ${left.image}`);
    expect(ours().containers).not.toContain(left.container);
    expect(ours().images).not.toContain(left.image);
    expect(existsSync(left.dir)).toBe(false);
    expect((await readMetaJson(out)).status).toBe('complete');
    // the resumed session's own container: no published port, nginx's TCP upstream the container's docker0 address
    const what = started(resumed.stderr);
    expect(what.published).toBe(false);
    expect(what.tcp).toBe(`${what.address}:8080`);
    expect((await readTrialRows(out)).map((r) => `${r.transport} ${r.status}`).sort()).toEqual(['tcp ok', 'uds ok']);
    expectGone(what);
  }, 120_000);

  it('finds the docker client', () => {
    expect(findDocker()).toBe(docker);
  });

  it('--server-docker without --server-netns is refused: the emulation is its fallback', async () => {
    const out = join(tmp.dir, 'refused');
    expectOneLineUsageError(await callMain(['sweep', 'myhro-2017-nginx', '--test', '--server-docker', '--out', out]), /--server-docker needs serverNetns \(--server-netns\)/);
    expect(existsSync(out)).toBe(false);
  });
});
