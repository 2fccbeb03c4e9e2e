/**
 * removeLeftovers takes nothing in a record on trust: it kills only the very
 * process recorded (same boot, pid, start time, executable, command line and
 * owner) once the process that started it is gone, and removes only nginx's
 * private directories that are ours and unused, and only sockets nobody
 * answers on. Real processes, directories and sockets (Linux /proc).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeProcess, removeLeftovers, bootId } from '../../lib/fixture/leftovers.js';
import { startServer } from '../../lib/fixture/server.js';
import { readFixtureRecord, writeFixtureRecord } from '../../lib/results/fixture-record.js';
import { isRunning } from '../helpers/processes.js';
import { waitFor } from '../helpers/wait.js';

/** @type {string} */
let dir;
/** @type {import('node:child_process').ChildProcess[]} */
let children = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'leftovers-test-'));
  children = [];
});
afterEach(async () => {
  for (const child of children) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

/**
 * A process of ours that waits; its command line names `mention`.
 * @param {string} [mention]
 */
async function sleeper(mention = 'x') {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e6)', mention], { stdio: 'ignore' });
  children.push(child);
  await new Promise((resolve) => child.once('spawn', resolve));
  const pid = /** @type {number} */ (child.pid);
  expect(await waitFor(() => describeProcess(pid, 'probe')?.cmdline.includes(mention) ?? false, { timeoutMs: 10_000, everyMs: 20 })).toBe(true); // exec'd: /proc shows node's command line
  return { child, record: /** @type {import('../../lib/fixture/leftovers.js').ProcessRecord} */ (describeProcess(pid, 'http server', describeProcess(process.pid, 'test'))) };
}

/** A parent that is gone: this process's pid with another start time. */
const goneParent = () => ({ pid: process.pid, start: /** @type {number} */ (describeProcess(process.pid, 'test')?.start) + 1 });

/** @param {Partial<import('../../lib/fixture/leftovers.js').FixtureRecord>} fields */
const recordOf = (fields) => ({ boot_id: bootId(), processes: [], dirs: [], sockets: [], networks: [], ...fields });

describe('removeLeftovers', () => {
  it('kills the very process recorded once its starter is gone, and says so', async () => {
    const { record } = await sleeper();
    const result = await removeLeftovers(recordOf({ processes: [{ ...record, parent: goneParent() }] }));
    expect(result).toEqual({ killed: [`http server pid ${record.pid}`], removed: [], left: [] });
    expect(isRunning(record)).toBe(false);
  });

  it('leaves a process alone whose starter still runs (a live sweep\'s), and names it', async () => {
    const { record } = await sleeper();
    const result = await removeLeftovers(recordOf({ processes: [record] }));
    expect(result).toEqual({ killed: [], removed: [], left: [`http server pid ${record.pid}`] });
    expect(isRunning(record)).toBe(true);
  });

  it('touches no process that is not exactly the one recorded, nor any on another boot', async () => {
    const { record } = await sleeper();
    const orphan = { ...record, parent: goneParent() };
    const others = [
      { ...orphan, start: orphan.start + 1 }, // a reused pid
      { ...orphan, cmdline: [...orphan.cmdline, 'more'] },
      { ...orphan, exe: '/usr/sbin/nginx' },
      { ...orphan, uid: orphan.uid + 1 },
      { ...orphan, pgid: orphan.pgid + 1 },
    ];
    for (const other of others) expect(await removeLeftovers(recordOf({ processes: [other] }))).toEqual({ killed: [], removed: [], left: [] });
    expect(await removeLeftovers(recordOf({ boot_id: 'another-boot', processes: [orphan] }))).toEqual({ killed: [], removed: [], left: [] });
    expect(isRunning(record)).toBe(true);
  });

  it('removes only an unused nginx private directory of ours: not another name, a symlink, or one a process names', async () => {
    const unused = join(dir, 'udsvstcp-nginx-Ab12Cd');
    const otherName = join(dir, 'not-nginx-Ab12Cd');
    const target = join(dir, 'target');
    const link = join(dir, 'udsvstcp-nginx-Link12');
    const inUse = join(dir, 'udsvstcp-nginx-InUse1');
    for (const path of [unused, otherName, target, inUse]) await mkdir(path);
    await mkdir(join(unused, 'proxy'));
    await symlink(target, link);
    await sleeper(`${inUse}/`);
    const result = await removeLeftovers(recordOf({ dirs: [unused, otherName, link, inUse, 'relative/udsvstcp-nginx-Ab12Cd'] }));
    expect(result).toEqual({ killed: [], removed: [unused], left: [] });
    expect(existsSync(unused)).toBe(false);
    for (const path of [otherName, target, link, inUse]) expect(existsSync(path)).toBe(true);
  });

  it('leaves a socket someone answers on, and its directory', async () => {
    const server = await startServer({ name: 'http' });
    try {
      const result = await removeLeftovers(recordOf({ sockets: [server.owned] }));
      expect(result).toEqual({ killed: [], removed: [], left: [] });
      expect(existsSync(server.uds.path)).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('fixture.json', () => {
  it('round-trips a record; entries of the wrong shape are dropped', async () => {
    const { record } = await sleeper();
    writeFixtureRecord(dir, recordOf({ processes: [record], dirs: ['/tmp/udsvstcp-nginx-Ab12Cd'] }));
    expect(readFixtureRecord(dir)).toEqual({ record: recordOf({ processes: [record], dirs: ['/tmp/udsvstcp-nginx-Ab12Cd'] }) });
    const network = { namespace: 'udsvstcp-1-2-abcdef', links: ['uvtb-abcdef', 'uvth-abcdef'], owner: { pid: 1, start: 2 } };
    await writeFile(join(dir, 'fixture.json'), JSON.stringify({ boot_id: 'b', processes: [{ ...record, pid: -1 }, { ...record, cmdline: 'a string' }, null, record], dirs: [1, 'x'], sockets: 'no', networks: [{ ...network, links: 'uvtb-abcdef' }, { ...network, owner: null }, network] }));
    expect(readFixtureRecord(dir)).toEqual({ record: { boot_id: 'b', processes: [record], dirs: ['x'], sockets: [], networks: [network] } });
  });

  it('is ignored with a reason when it is not JSON, a symlink or a FIFO (which must not hang the resume)', async () => {
    await writeFile(join(dir, 'fixture.json'), '{ not json');
    expect(readFixtureRecord(dir)).toEqual({ record: null, problem: expect.stringMatching(/fixture\.json is not JSON: /) });
    await rm(join(dir, 'fixture.json'));
    await writeFile(join(dir, 'elsewhere.json'), '{}');
    await symlink(join(dir, 'elsewhere.json'), join(dir, 'fixture.json'));
    expect(readFixtureRecord(dir)).toEqual({ record: null, problem: `${join(dir, 'fixture.json')} is a symbolic link; udsvstcp never writes or reads through one (remove it, or use another directory)` });
    await rm(join(dir, 'fixture.json'));
    execFileSync('mkfifo', [join(dir, 'fixture.json')]);
    expect(readFixtureRecord(dir)).toEqual({ record: null, problem: `${join(dir, 'fixture.json')} is a FIFO (named pipe), not a regular file; udsvstcp reads and writes only regular files` });
    await rm(join(dir, 'fixture.json'));
    expect(readFixtureRecord(dir)).toEqual({ record: null });
  });
});
