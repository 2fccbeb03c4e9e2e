/**
 * npm run bench:backlog: bad input refused before any server starts (one
 * line naming the flag and its range, exit 2), and its table.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toTable } from '../bench/backlog.js';
import { runScript } from '../helpers/cli.js';

const BENCH = fileURLToPath(new URL('../bench/backlog.js', import.meta.url));

describe('npm run bench:backlog', () => {
  it('refuses a bad flag: one line naming it and the range, exit 2, nothing started', async () => {
    for (const [args, message] of /** @type {[string[], RegExp][]} */ ([
      [['--rounds', '0'], /^backlog bench: --rounds must be a whole number from 1 to 20, e.g\. 5; got 0\n$/],
      [['--connections', '64', '--backlog', '64'], /^backlog bench: --backlog must be a whole number from 1 to 63, e.g\. 128; got 64\n$/],
      [['--connections', '99999999'], /^backlog bench: --connections must be a whole number from 2 to \d+, e\.g\. 1024; got 99999999( \(net\.core\.somaxconn \d+ caps any backlog\))?\n$/],
    ])) {
      const { code, stdout, stderr } = await runScript(BENCH, args);
      expect(code, stderr).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(message);
    }
  });

  it('prints a row per backlog, transport and round, and one over the rounds: failures by code, connect-time percentiles of those that connected', () => {
    const outcome = (/** @type {number} */ backlog, /** @type {'uds' | 'tcp'} */ transport, /** @type {number} */ round, /** @type {number[]} */ ms, failed = {}) => ({ backlog, transport, round, connections: 4, ms, failed });
    expect(toTable([outcome(2, 'uds', 0, [1, 2], { EAGAIN: 2 }), outcome(2, 'uds', 1, [3, 4, 5], { EAGAIN: 1 }), outcome(2, 'tcp', 0, [1, 1, 2, 1000])]).split('\n')).toEqual([
      'backlog  transport  round  connects    failed  p50 ms  p99 ms  max ms',
      '2        UDS            0         4  2 EAGAIN     1.0     2.0     2.0',
      '2        UDS            1         4  1 EAGAIN     4.0     5.0     5.0',
      '2        UDS          all         8  3 EAGAIN     3.0     5.0     5.0',
      '2        TCP            0         4         0     1.0  1000.0  1000.0',
    ]);
  });
});
