/**
 * /proc/PID/stat parsing, which nginx's CPU seconds and worker list rest on.
 */
import { describe, expect, it } from 'vitest';
import { childPids, parseProcStat, readProcStat } from '../../lib/fixture/proc-stat.js';

describe('proc-stat', () => {
  it('counts fields from the last ")", so a command name with spaces and parentheses is no trouble', () => {
    const text = '4242 (nginx: (worker) x) S 4241 4241 4241 0 -1 4194560 100 0 0 0 123 45 6 7 20 0 1 0 694669 3133440 415 18446744073709551615\n';
    expect(parseProcStat(text)).toEqual({ pid: 4242, ppid: 4241, pgrp: 4241, state: 'S', utime: 123, stime: 45, cutime: 6, cstime: 7, start: 694669 });
  });

  it('refuses text that is not a stat line', () => {
    expect(parseProcStat('')).toBeNull();
    expect(parseProcStat('1 (x) S 0')).toBeNull();
  });

  it('reads this process, and finds it among its parent\'s children', () => {
    const self = readProcStat(process.pid);
    expect(self).toMatchObject({ pid: process.pid, ppid: process.ppid });
    expect(childPids(process.ppid)).toContain(process.pid);
    expect(readProcStat(2 ** 30)).toBeNull();
  });
});
