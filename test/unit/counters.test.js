/**
 * The mechanism counters of a process (lib/core/counters.js): our own from
 * process.resourceUsage() and /proc/self/io, another's from /proc/PID.
 * Counts of calls we make ourselves are exact; nothing here is timed.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { diffCounters, parseProcFields, readOwnCounters, readProcessCounters, sumCounters } from '../../lib/core/counters.js';

const hasProcIo = existsSync('/proc/self/io');
const COUNTERS = new URL('../../lib/core/counters.js', import.meta.url).href;
const run = promisify(execFile);

describe('mechanism counters', () => {
  it('parse /proc/PID/io and /proc/PID/status fields, skipping lines that are not one number', () => {
    const io = 'rchar: 4096\nwchar: 12\nsyscr: 7\nsyscw: 3\nread_bytes: 0\nwrite_bytes: 0\ncancelled_write_bytes: 0\n';
    expect(parseProcFields(io)).toMatchObject({ syscr: 7, syscw: 3, rchar: 4096 });
    const status = 'Name:\tnginx\nState:\tS (sleeping)\nCpus_allowed_list:\t0-1\nvoluntary_ctxt_switches:\t150\nnonvoluntary_ctxt_switches:\t545\n';
    expect(parseProcFields(status)).toEqual({ voluntary_ctxt_switches: 150, nonvoluntary_ctxt_switches: 545 });
  });

  it('sum and subtract counts, unknown (null) where either side is', () => {
    const a = { vcsw: 1, ivcsw: 2, reads: 3, writes: 4 };
    const b = { vcsw: 10, ivcsw: 20, reads: null, writes: 40 };
    expect(sumCounters([a, b])).toEqual({ vcsw: 11, ivcsw: 22, reads: null, writes: 44 });
    expect(diffCounters(a, b)).toEqual({ vcsw: 9, ivcsw: 18, reads: null, writes: 36 });
    expect(sumCounters([])).toEqual({ vcsw: 0, ivcsw: 0, reads: 0, writes: 0 });
  });

  it('count our context switches everywhere', () => {
    const c = readOwnCounters();
    expect(Number.isInteger(c.vcsw) && c.vcsw >= 0).toBe(true);
    expect(Number.isInteger(c.ivcsw) && c.ivcsw >= 0).toBe(true);
  });

  it.skipIf(!hasProcIo)('count exactly the read and write calls between two readings, not those of the readings', async () => {
    // in a fresh process of its own, where no other test's threads make calls in between
    const script = `
      import { openSync, writeSync, readSync } from 'node:fs';
      import { diffCounters, readOwnCounters } from ${JSON.stringify(COUNTERS)};
      const fd = openSync('/dev/zero', 'r+');
      const buffer = Buffer.alloc(8);
      const before = readOwnCounters();
      for (let i = 0; i < 5; i++) writeSync(fd, buffer);
      for (let i = 0; i < 3; i++) readSync(fd, buffer);
      const after = readOwnCounters();
      const again = readOwnCounters();
      console.log(JSON.stringify([diffCounters(before, after), diffCounters(after, again)]));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
    const [calls, readings] = JSON.parse(stdout);
    expect(calls).toMatchObject({ reads: 3, writes: 5 });
    expect(readings).toMatchObject({ reads: 0, writes: 0 }); // readings alone add nothing
  });

  it.skipIf(!hasProcIo)("read another process's counters from /proc, and null once it is gone", async () => {
    const child = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] });
    try {
      await once(child, 'spawn');
      const c = readProcessCounters(/** @type {number} */ (child.pid));
      expect(c).not.toBeNull();
      for (const key of /** @type {const} */ (['vcsw', 'ivcsw', 'reads', 'writes'])) expect(c?.[key]).toBeGreaterThanOrEqual(0);
    } finally {
      child.stdin?.end();
      if (child.exitCode === null) await once(child, 'exit');
    }
    expect(readProcessCounters(/** @type {number} */ (child.pid))).toBeNull(); // exited and reaped: no /proc/PID
  });
});
