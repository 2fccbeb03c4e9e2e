/**
 * The postgres workload's refusals, in process: a --postgres-bin that holds no
 * PostgreSQL, --tcp/--uds, --server-netns and serve, each before anything
 * starts. Its one real sweep, `sweep postgres --test` (a private cluster,
 * every query verified over TCP and the cluster's socket, pgbench beside pg,
 * nothing left running or on disk), is the preset's own in
 * test/cli/sweep-e2e-servers.test.js, which carries the workload's checks too.
 */
import fs from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/cli.js';
import { expectRefused } from '../helpers/in-process.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;

beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp?.remove());

describe('the postgres workload refuses before anything starts', () => {
  it('a --postgres-bin that holds no initdb and postgres: one line naming the package and the flag', async () => {
    await expectRefused(['sweep', 'postgres', '--test', '--postgres-bin', join(tmp.dir, 'no-postgres-here'), '--out', join(tmp.dir, 'refused')], /--postgres-bin \S+: no executable initdb and postgres there; install it \(Debian\/Ubuntu: apt-get install postgresql\) or give --postgres-bin DIR/);
    expect(fs.existsSync(join(tmp.dir, 'refused'))).toBe(false);
  });

  it('--tcp, --server-netns and serve: its server is a private cluster of its own, on the host', async () => {
    await expectRefused(['run', '--workload', 'postgres', '--tcp', '127.0.0.1:5432'], /--tcp.* are not for the postgres workload: it starts a private PostgreSQL cluster of its own/);
    await expectRefused(['run', '--workload', 'postgres', '--server-netns'], /--server-netns applies to the .* workloads, not postgres/);
    await expectRefused(['serve', '--workload', 'postgres'], /serve --workload postgres: its server is a private PostgreSQL cluster, not one of ours/);
  });
});
