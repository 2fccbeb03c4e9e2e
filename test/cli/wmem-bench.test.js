import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toTable } from '../bench/wmem.js';
import { runScript } from '../helpers/cli.js';

const BENCH = fileURLToPath(new URL('../bench/wmem.js', import.meta.url));

/**
 * @param {{ uid?: number, gid?: number }} options
 * @param {string[]} [args]
 */
const runBench = (options, args = []) => runScript(BENCH, args, options);

/**
 * @param {string} transport
 * @param {string} metric
 * @param {number} value
 * @param {[number, number]} [ci]
 */
const row = (transport, metric, value, ci) => ({ workload: 'stream', size_bytes: '524288', depth: '1', transport, metric, mean: String(value), geomean: String(value), ci95_low: ci ? String(ci[0]) : '', ci95_high: ci ? String(ci[1]) : '' });

describe('npm run bench:wmem', () => {
  it.runIf(process.platform === 'linux')('refuses to run without root: one line, exit 2, the sysctl untouched', async () => {
    const before = readFileSync('/proc/sys/net/core/wmem_default', 'utf8');
    // as root, run it as nobody; otherwise as we are
    const { code, stdout, stderr } = await runBench(process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {});
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('wmem bench: needs root: it sets net.core.wmem_default for the length of the run (and puts it back); run it as root, e.g. sudo npm run bench:wmem\n');
    expect(readFileSync('/proc/sys/net/core/wmem_default', 'utf8')).toBe(before);
  });

  it('refuses a bad --rounds before anything else: one line naming it and the range, exit 2, the sysctl untouched', async () => {
    const before = readFileSync('/proc/sys/net/core/wmem_default', 'utf8');
    const { code, stdout, stderr } = await runBench({}, ['--rounds', '0']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('wmem bench: --rounds must be a whole number from 1 to 10, e.g. 2; got 0\n');
    expect(readFileSync('/proc/sys/net/core/wmem_default', 'utf8')).toBe(before);
  });

  it('prints a row per chunk size and wmem_default: the ratio, client CPU per GB both ways, writes per chunk where recorded', () => {
    const summary = [row('uds/tcp', 'gb_per_s', 0.71, [0.6, 0.84]), row('tcp', 'client_cpu_ms_per_gb', 300), row('uds', 'client_cpu_ms_per_gb', 285), row('uds/tcp', 'client_cpu_ms_per_gb', 0.95, [0.9, 1.0])];
    const raised = [row('uds/tcp', 'gb_per_s', 1.01, [0.95, 1.07]), row('tcp', 'client_cpu_ms_per_gb', 300), row('uds', 'client_cpu_ms_per_gb', 200), row('uds/tcp', 'client_cpu_ms_per_gb', 0.67, [0.66, 0.68])];
    const trials = (/** @type {string} */ tcp, /** @type {string} */ uds) => [
      { size_bytes: '524288', transport: 'tcp', status: 'ok', client_writes_per_chunk: tcp },
      { size_bytes: '524288', transport: 'uds', status: 'ok', client_writes_per_chunk: uds },
    ];
    expect(toTable([{ wmem: '212992', summary, trials: [] }, { wmem: '4194304', summary: raised, trials: trials('1', '1.25') }]).split('\n')).toEqual([
      'wmem_default  chunk    UDS/TCP GB/s [95 % CI]  client CPU ms/GB TCP  UDS           UDS/TCP  writes/chunk TCP  UDS',
      '212992        512 KiB        0.71 [0.60–0.84]                   300  285  0.95 [0.90–1.00]               n/a  n/a',
      '4194304       512 KiB        1.01 [0.95–1.07]                   300  200  0.67 [0.66–0.68]               1.0  1.3',
    ]);
  });
});
