/**
 * The mechanism figures of a record (lib/core/counters.js): context switches
 * and read/write calls per unit of work, the client's and the server's (and
 * nginx's for proxy). Numbers wherever they can be measured: switches
 * everywhere, read and write calls where /proc/self/io exists.
 */
import { existsSync } from 'node:fs';
import { expect } from 'vitest';

const MECHANISM = /^(client|server|nginx)_(vcsw|ivcsw|reads|writes)_per_(msg|chunk|conn|req)$/;

/**
 * Expect every mechanism figure of a `run --json` record (or a trial row) to be measured.
 * @param {Record<string, unknown>} record
 */
export function expectMechanismFigures(record) {
  const keys = Object.keys(record).filter((k) => MECHANISM.test(k));
  const sides = record.workload === 'proxy' ? 3 : 2;
  expect(keys.length, `${record.workload} mechanism figures`).toBeGreaterThanOrEqual(sides * 3);
  for (const key of keys) {
    if (/_(reads|writes)_/.test(key) && !existsSync('/proc/self/io')) expect(record[key], key).toBeNull();
    else {
      expect(typeof record[key], key).toBe('number');
      expect(record[key], key).toBeGreaterThanOrEqual(0);
    }
  }
}
