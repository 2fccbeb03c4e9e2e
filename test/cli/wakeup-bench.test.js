import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toTable } from '../bench/wakeup.js';
import { runScript } from '../helpers/cli.js';

const BENCH = fileURLToPath(new URL('../bench/wakeup.js', import.meta.url));

/** @param {string[]} args */
const runBench = async (args) => {
  const { code, stdout, stderr } = await runScript(BENCH, args);
  return { code, stdout, stderr };
};

/**
 * A summary.csv row.
 * @param {string} transport
 * @param {string} metric
 * @param {number} value
 * @param {[number, number]} [ci]
 */
const row = (transport, metric, value, ci) => ({ size_bytes: '16', depth: '1', transport, metric, mean: String(value), geomean: String(value), ci95_low: ci ? String(ci[0]) : '', ci95_high: ci ? String(ci[1]) : '' });

describe('npm run bench:wakeup', () => {
  it('refuses a bad --rounds or --runs before it starts anything: one line naming it and the range, exit 2', async () => {
    expect(await runBench(['--rounds', '0'])).toEqual({ code: 2, stdout: '', stderr: 'wakeup bench: --rounds must be a whole number from 1 to 10; got 0\n' });
    expect(await runBench(['--runs', 'x'])).toEqual({ code: 2, stdout: '', stderr: 'wakeup bench: --runs must be a whole number from 1 to 100; got x\n' });
  });

  it('prints a row per size, pin and round: the ratio, the round trips and the client\'s voluntary switches', () => {
    const summary = (/** @type {number} */ r, /** @type {number} */ tcp, /** @type {number} */ uds, /** @type {number} */ sw) => [row('uds/tcp', 'msgs_per_s', r, [r - 0.05, r + 0.05]), row('tcp', 'rtt_mean_us', tcp), row('uds', 'rtt_mean_us', uds), row('tcp', 'client_vcsw_per_msg', sw), row('uds', 'client_vcsw_per_msg', sw + 0.01)];
    expect(toTable([{ label: 'same (1)', summary: summary(1.41, 67, 47, 0.62) }, { label: 'split (1)', summary: summary(1.07, 473, 446, 1.02) }]).split('\n')).toEqual([
      'pin (round)  size  UDS/TCP msgs/s [95 % CI]  RTT mean µs TCP  UDS  client vcsw/msg TCP   UDS',
      'same (1)     16 B          1.41 [1.36–1.46]               67   47                 0.62  0.63',
      'split (1)    16 B          1.07 [1.02–1.12]              473  446                 1.02  1.03',
    ]);
  });
});
