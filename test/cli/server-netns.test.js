/**
 * --server-netns through the real CLI: `sweep myhro-2017-docker --test`
 * (nginx on loopback, the app server in a network namespace of its own, TCP
 * through the port proxy, UDS through a directory both sides see) measures
 * both transports and leaves no namespace, link, bridge or process behind,
 * and, as no Docker daemon answers its docker client (pointed nowhere), says
 * that it emulates the container and why (the real one:
 * server-docker.test.js); a myhro-2017-docker-bridge sweep killed with SIGKILL
 * leaves its namespace and bridge, which `--resume` removes from
 * fixture.json, and the resumed sweep, like `run --server-netns` without the
 * port proxy, reaches the server's namespace address; and
 * removeStrayNetworks removes what a killed owner left, and nothing of a live
 * one. Needs root and iproute2: without them these tests fail saying so.
 * Refusing a user who is not root (exit 2, nothing made) is tested as nobody
 * when we are root. These presets run here rather than in sweep-e2e, one
 * test after another: each --server-netns start removes the networks of any
 * killed sweep, which must not happen while the SIGKILL test looks at its own.
 * The sweeps are of one connection, the killed one of one run: what is
 * tested is where the server runs and what is left, not the figures (two
 * runs in the first, for runs-wide.csv's pinned header).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { findDocker } from '../../lib/fixture/docker.js';
import { createNetwork, listNetworks, removeStrayNetworks } from '../../lib/fixture/netns.js';
import { BIN, callMain, expectOneLineUsageError, makeTempDir, runScript } from '../helpers/cli.js';
import { needRootAndIp, networksOf } from '../helpers/netns.js';
import { expectPinnedHeaders } from '../helpers/schema.js';
import { readFixtureRecord, readMetaJson, readTrialRows } from '../helpers/sweeps.js';
import { waitFor } from '../helpers/wait.js';

const NETNS = fileURLToPath(new URL('../../lib/fixture/netns.js', import.meta.url));
/** The presets' --server-docker falls back to this emulation when no Docker daemon answers: a docker client pointed nowhere (real Docker: server-docker.test.js). */
const NO_DOCKER = { DOCKER_HOST: 'unix:///nonexistent/udsvstcp-no-docker.sock' };

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

/** @param {number} pid */
const running = (pid) => existsSync(`/proc/${pid}`);

/**
 * What a sweep's stderr says it started: the server, the port proxy, nginx, and the namespace and bridge.
 * @param {string} stderr
 */
function started(stderr) {
  const line = /http server pid (\d+) in network namespace (udsvstcp-\d+-\d+-[0-9a-f]{6}) \(bridge (uvtb-[0-9a-f]{6}), host (10\.213\.\d+\.\d+)\): tcp (?:127\.0\.0\.1:\d+ → port proxy pid (\d+) → )?(10\.213\.\d+\.\d+):\d+, uds (\S+)/.exec(stderr);
  const nginx = /nginx pid (\d+)/.exec(stderr);
  if (!line || !nginx) throw new Error(`no fixture line in:\n${stderr}`);
  const [, server, namespace, bridge, , proxy, address, uds] = line;
  return { pids: [server, proxy, nginx[1]].filter(Boolean).map(Number), proxy: proxy ? Number(proxy) : null, namespace, bridge, address, uds };
}

/**
 * Nothing of it is left: no namespace or link of that name, no process.
 * @param {string} ip
 * @param {ReturnType<typeof started>} what
 */
function expectGone(ip, { pids, namespace, bridge, uds }) {
  const { namespaces, links } = listNetworks(ip);
  expect(namespaces.map((n) => n.name)).not.toContain(namespace);
  expect(links.map((l) => l.name).filter((name) => name.endsWith(bridge.slice('uvtb-'.length)))).toEqual([]); // bridge and veth pair
  expect(pids.filter(running)).toEqual([]);
  expect(existsSync(uds)).toBe(false);
}

describe('sweep --server-netns as root', () => {
  /** @type {string} */
  let ip;
  beforeAll(() => {
    ip = needRootAndIp();
  });

  it('myhro-2017-docker --test with no Docker daemon answering: the emulation, saying why; both transports measured through nginx, TCP via the port proxy, and nothing left', async () => {
    const out = join(tmp.dir, 'docker');
    const { code, stdout, stderr } = await callMain(['sweep', 'myhro-2017-docker', '--test', '--depths', '1', '--no-probe', '--no-report', '--out', out], { env: NO_DOCKER });
    expect(code, stderr).toBe(0);
    expect(stdout).toBe(`${out}\n`);
    // a docker client that reaches no daemon (without a client at all, it says that)
    const why = findDocker() ? 'no Docker daemon answered' : 'no docker client on PATH';
    expect(stderr).toMatch(new RegExp(`^docker: emulated \\(${why}.*; the server in a network namespace instead\\)$`, 'm'));
    expect(stderr).toMatch(/^ip: \/\S+\/ip \(iproute2 [^)]+\): the server in a network namespace, TCP through a port proxy$/m);
    const what = started(stderr);
    expect(what.proxy).not.toBeNull();
    const rows = await readTrialRows(out);
    expect(rows.map((r) => `${r.transport} ${r.status}`).sort()).toEqual(['tcp ok', 'tcp ok', 'uds ok', 'uds ok']);
    for (const row of rows) expect(Number(row.proxy_cpu_us_per_req)).toBeGreaterThanOrEqual(0);
    const meta = await readMetaJson(out);
    expect(meta.spec).toMatchObject({ serverNetns: true, portProxy: true });
    expect(meta.design.docker).toMatch(/^emulated \(/);
    expect(meta.design.server_network).toMatch(/network namespace .* port proxy on 127\.0\.0\.1/);
    expect(readFixtureRecord(out)).toMatchObject({ processes: [], networks: [] });
    await expectPinnedHeaders(out, 'proxy');
    expectGone(ip, what);
  }, 60_000);

  it('run --workload proxy --server-netns: nginx reaches the server at its namespace address, no port proxy, and nothing left', async () => {
    const { code, stderr } = await callMain(['run', '--workload', 'proxy', '--server-netns', '--connections', '2', '--duration', '50ms', '--warmup', '10ms']);
    expect(code, stderr).toBe(0);
    const what = started(stderr);
    expect(what.proxy).toBeNull();
    expect(stderr).toContain(`→ tcp ${what.address}:`); // nginx's upstream: the bridge address
    for (const transport of ['tcp', 'uds']) expect(stderr).toMatch(new RegExp(`^${transport} +64 B +2 .* ok$`, 'm'));
    expectGone(ip, what);
  }, 60_000);

  it('a bridge sweep killed with SIGKILL leaves its namespace and bridge; --resume removes them (fixture.json) and completes, nginx reaching the server at its namespace address, no port proxy, and nothing left', async () => {
    const out = join(tmp.dir, 'killed');
    const child = spawn(process.execPath, [BIN, 'sweep', 'myhro-2017-docker-bridge', '--test', '--no-probe', '--no-report', '--runs', '1', '--depths', '1', '--out', out], { env: { ...process.env, NO_COLOR: '1', ...NO_DOCKER }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text) => { stderr += text; });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const pid = /** @type {number} */ (child.pid);
    const ready = await waitFor(() => readFixtureRecord(out)?.networks?.length > 0, { timeoutMs: 30_000, everyMs: 10 });
    expect(ready, stderr).toBe(true);
    child.kill('SIGKILL');
    await exited;
    const [network] = readFixtureRecord(out).networks;
    expect(network.namespace).toMatch(new RegExp(`^udsvstcp-${pid}-`));
    expect(networksOf(ip, pid)).toEqual(expect.arrayContaining([network.namespace, ...network.links])); // left behind: nothing was there to remove it

    const resumed = await callMain(['sweep', '--resume', out, '--no-probe', '--no-report'], { env: NO_DOCKER });
    expect(resumed.code, resumed.stderr).toBe(0);
    const notes = resumed.stderr.split('\n').filter((line) => line.includes('fixture.json'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^note: ended what an earlier session of this sweep left behind \(fixture\.json\): /);
    expect(notes[0]).toContain(`network namespace ${network.namespace}`);
    expect(notes[0]).toContain(`link ${network.links[0]}`);
    expect(networksOf(ip, pid)).toEqual([]);
    const meta = await readMetaJson(out);
    expect(meta.status).toBe('complete');
    // the resumed session's own server: no port proxy, nginx's TCP upstream the bridge address
    const what = started(resumed.stderr);
    expect(what.proxy).toBeNull();
    expect(resumed.stderr).toContain(`→ tcp ${what.address}:`);
    expect((await readTrialRows(out)).map((r) => `${r.transport} ${r.status}`).sort()).toEqual(['tcp ok', 'uds ok']);
    expect(meta.spec).toMatchObject({ serverNetns: true, portProxy: false });
    expectGone(ip, what);
  }, 90_000);

  it('removeStrayNetworks removes the network of an owner killed with SIGKILL, and not a live owner\'s', async () => {
    const mine = createNetwork({ ip });
    // a process that makes a network, says so, and waits to be killed
    const code = `import { createNetwork } from ${JSON.stringify(NETNS)}; const n = createNetwork({ ip: ${JSON.stringify(ip)} }); process.stdout.write(JSON.stringify(n.namespace) + '\\n'); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [line] = /** @type {[Buffer]} */ (await once(/** @type {import('node:stream').Readable} */ (child.stdout), 'data'));
      const namespace = JSON.parse(line.toString());
      const pid = /** @type {number} */ (child.pid);
      expect(namespace).toMatch(new RegExp(`^udsvstcp-${pid}-\\d+-[0-9a-f]{6}$`));
      const made = networksOf(ip, pid);
      expect(made).toEqual(expect.arrayContaining([namespace, expect.stringMatching(/^uvtb-/), expect.stringMatching(/^uvth-/)]));
      child.kill('SIGKILL');
      await once(child, 'exit');
      expect(networksOf(ip, pid)).toEqual(made); // SIGKILL runs no exit hook: it stays
      expect(removeStrayNetworks(ip)).toEqual(expect.arrayContaining([`network namespace ${namespace}`, `link ${made.find((n) => n.startsWith('uvtb-'))}`]));
      expect(networksOf(ip, pid)).toEqual([]);
      expect(networksOf(ip, process.pid)).toEqual(expect.arrayContaining([mine.namespace, ...mine.links])); // ours: we still run
    } finally {
      child.kill('SIGKILL');
      mine.remove();
    }
    expect(networksOf(ip, process.pid)).toEqual([]);
  });
});

describe('sweep --server-netns without root', () => {
  it('exits 2 at once saying what is needed, and makes nothing', async () => {
    // as root, run it as nobody; otherwise as we are
    const asNobody = process.getuid?.() === 0;
    const out = join(os.tmpdir(), `udsvstcp-netns-nobody-${process.pid}-${Date.now()}`);
    const result = await runScript(BIN, ['sweep', 'myhro-2017-docker', '--test', '--out', out], { cwd: os.tmpdir(), ...(asNobody ? { uid: 65534, gid: 65534 } : {}) });
    expectOneLineUsageError(result, /sweep myhro-2017-docker: serverNetns \(--server-netns\) needs root \(it makes a network namespace, a bridge and a veth pair; running as uid \d+: use sudo\)/);
    expect(existsSync(out)).toBe(false);
  });

  it('--port-proxy without --server-netns is refused naming both', async () => {
    const dir = join(tmp.dir, 'refused');
    await mkdir(dir);
    const result = await callMain(['sweep', 'myhro-2017-nginx', '--test', '--port-proxy', '--out', join(dir, 'out')]);
    expectOneLineUsageError(result, /--port-proxy needs serverNetns \(--server-netns\)/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('transports other than tcp and uds with --server-netns are refused, sweep and run: an abstract socket stays in its namespace, the message transports have no server', async () => {
    const out = join(tmp.dir, 'abstract-out');
    expectOneLineUsageError(await callMain(['sweep', 'quick', '--test', '--server-netns', '--transports', 'tcp,uds-abstract', '--out', out]), /--transports uds-abstract cannot reach a server in a network namespace/);
    expect(existsSync(out)).toBe(false);
    expectOneLineUsageError(await callMain(['run', '--server-netns', '--transport', 'tcp,uds-abstract', '--packets', '10']), /--transport uds-abstract cannot reach a server in a network namespace/);
    expectOneLineUsageError(await callMain(['run', '--server-netns', '--transport', 'tcp,ipc-json,worker', '--packets', '10']), /--transport ipc-json,worker cannot reach a server in a network namespace \(--server-netns\): .*; use tcp and uds/);
  });
});
