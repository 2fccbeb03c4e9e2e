/**
 * Which version a server or client program is (meta.json's executables): one probe, lib/core/programs.js
 * programVersion, for nginx, redis-server, redis-benchmark and PostgreSQL, run on the real programs; and where
 * the system's programs (taskset, ip) are looked for.
 */
import { describe, expect, it } from 'vitest';
import { findProgram, originOf, programVersion } from '../../lib/core/programs.js';
import { describeNginx, findNginx } from '../../lib/fixture/nginx.js';
import { describePostgres, findPostgres } from '../../lib/fixture/postgres-process.js';
import { describeRedisServer, findRedisServer } from '../../lib/fixture/redis-process.js';
import { describeRedisBenchmark, findRedisBenchmark } from '../../lib/client/redis-benchmark.js';

/** @param {string | null | undefined} path */
const found = (path) => {
  if (!path) throw new Error('not installed: .ci/run installs it from Debian');
  return path;
};

describe('programVersion', () => {
  it('is the first group of the pattern in what the program printed', () => {
    expect(programVersion(process.execPath, '--version', /^v(\S+)/)).toBe(process.versions.node);
  });

  it('says why there is none: an exit code, or the error of a program that cannot start', () => {
    expect(programVersion(process.execPath, '-e', /(x)/)).toMatch(/^unknown: `.+ -e` gave no version \(/);
    expect(programVersion('/nonexistent/udsvstcp-test', '--version', /(x)/)).toMatch(/^unknown: `\/nonexistent\/udsvstcp-test --version` gave no version \(.*ENOENT\)$/);
  });

  it("gives each real program's version", () => {
    expect(describeNginx(found(findNginx())).version).toMatch(/^nginx\/\d+\.\d+/);
    expect(describeRedisServer(found(findRedisServer())).version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(describeRedisBenchmark(found(findRedisBenchmark())).version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(describePostgres(found(findPostgres())).version).toMatch(/^PostgreSQL \d+\.\d+/);
  });
});

describe('findProgram', () => {
  it("looks only in PATH's absolute directories, never in a relative entry such as '.'", async () => {
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'udsvstcp-path-'));
    const [cwd, path] = [process.cwd(), process.env.PATH];
    try {
      writeFileSync(join(dir, 'taskset'), '#!/bin/sh\n', { mode: 0o755 });
      process.chdir(dir);
      process.env.PATH = `.:${path}`;
      expect(findProgram('taskset')).not.toBe('taskset');
      expect(findProgram('taskset')).toMatch(/^\/.*\/taskset$/); // util-linux's, which .ci/run installs
      process.env.PATH = `${dir}:${path}`;
      expect(findProgram('taskset')).toBe(join(dir, 'taskset')); // an absolute entry is taken as given
    } finally {
      process.chdir(cwd);
      process.env.PATH = path;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('originOf', () => {
  it("says PATH of a program in one of PATH's directories, else the directory searched after PATH that held it", () => {
    const path = process.env.PATH;
    try {
      process.env.PATH = '/usr/local/bin:/usr/bin';
      expect(originOf('/usr/bin/redis-server')).toBe('PATH');
      expect(originOf('/usr/sbin/nginx')).toBe('/usr/sbin');
      expect(originOf('/usr/lib/postgresql/15/bin', true)).toBe('/usr/lib/postgresql/15/bin');
      expect(originOf('/usr/local/bin', true)).toBe('PATH');
    } finally {
      process.env.PATH = path;
    }
  });
});
