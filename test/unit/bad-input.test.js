/**
 * Bad flags of run, serve and sweep, and a bad TMPDIR: one line naming the
 * flag (or key, or TMPDIR) and what it takes, exit 2, nothing on stdout and
 * nothing started: no server, no child, nothing in TMPDIR, no results
 * directory. main() runs in this process with streams passed in (it resolves
 * and validates before it starts anything). What serve refuses once its
 * server binds (a port in use, a path taken) is in
 * test/integration/server-refusals.test.js, and test/cli/bad-input.test.js
 * checks the binary's own wiring of both.
 */
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isLoopback } from '../../lib/options/validate.js';
import { callMain } from '../helpers/cli.js';
import { expectRefused } from '../helpers/in-process.js';
import { usePrivateTmpdir } from '../helpers/temp.js';

const tmp = usePrivateTmpdir();

/**
 * Refused, and TMPDIR left empty.
 * @param {string[]} args
 * @param {RegExp | string} message
 */
async function expectUsageError(args, message) {
  const result = await expectRefused(args, message);
  expect(await readdir(tmp.tmpdir)).toEqual([]);
  return result;
}

describe('run: one line naming the flag and its range', () => {
  it.each(['0', '3', '-1', '1.5', 'abc', '128MiB'])('run --size=%s', async (size) => {
    await expectUsageError(['run', `--size=${size}`], /--size must be a power of two from 1 B to 64 MiB/);
  });

  it.each([['--duration', '2h', '10 ms to 1 h (e.g. 500ms, 2s, 1min, 1h;'], ['--timeout', '11min', '10 ms to 10 min (e.g. 500ms, 2s, 1min;'], ['--server-work', '1s', '1 µs to 100 ms (e.g. 50us;']])('run %s %s: its range as the help writes it', async (flag, value, range) => {
    // it said "from 10 ms to 3600 s" where the help says "10 ms to 1 h"
    await expectUsageError(['run', flag, value], `${flag} must be a duration from ${range} a bare number is seconds); got "${value}"`);
  });

  it.each(['0', '65537', 'x'])('run --depth=%s', async (depth) => {
    await expectUsageError(['run', `--depth=${depth}`], /--depth must be a whole number from 1 to 65536/);
  });

  it('run: size × depth over 256 MiB in flight', async () => {
    await expectUsageError(['run', '--size', '64MiB', '--depth', '8'], /size × depth must be at most 256 MiB in flight; got 64 MiB × 8 = 512 MiB/);
  });

  it('run --packets 0', async () => {
    await expectUsageError(['run', '--packets', '0'], /--packets must be a whole number from 1 to 20000000/);
  });

  it('run with both --packets and --duration', async () => {
    await expectUsageError(['run', '--packets', '10', '--duration', '1s'], /--packets and --duration exclude each other/);
  });

  it('--warmup with a time over the limit says that a bare number is packets', async () => {
    await expectUsageError(['run', '--warmup', '11m'], '--warmup must be a packet count from 0 to 10000000 (a bare number: 1000) or a time up to 10 min (with a unit: 250ms, 1s, 10min); got "11m"');
  });

  it('an unknown option', async () => {
    await expectUsageError(['run', '--sise', '64'], /unknown option '--sise'/);
  });

  it('prints a stack trace only with --debug', async () => {
    const plain = await callMain(['run', '--size', '3']);
    expect(plain.code).toBe(2);
    expect(plain.stderr).not.toMatch(/\n\s+at /);
    const { code, stderr } = await callMain(['--debug', 'run', '--size', '3']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/\n\s+at /);
  });
});

describe('run: targets and transports', () => {
  it('run --transport udp', async () => {
    await expectUsageError(['run', '--transport', 'udp'], /--transport must be one of tcp, uds, uds-abstract, ipc-json, ipc-advanced, worker, or a list of them \(tcp,uds,uds-abstract; both is tcp,uds\); got "udp"/);
  });

  it.each([
    [['--transport', 'tcp,udp'], /^udsvstcp: error: --transport must be one of tcp, uds, uds-abstract/m],
    [['--transport', 'tcp,,uds'], /--transport must be one of/],
    [['--workload', 'proxy', '--transport', 'tcp,uds-abstract'], /--transport uds-abstract: the proxy workload needs/],
    [['--tcp', '127.0.0.1:9', '--uds', '/tmp/nothing-here.sock', '--transport', 'tcp,uds,uds-abstract'], /--transport uds-abstract needs a server of ours/],
    [['--workload', 'stream', '--transport', 'tcp,ipc-json'], /--transport ipc-json: the stream workload needs/],
    [['--workload', 'http', '--transport', 'worker'], /--transport worker: the http workload needs/],
  ])('run %j', async (flags, message) => {
    await expectUsageError(['run', ...flags, '--duration', '10ms'], message);
  });

  it.each(['127.0.0.1:0', '127.0.0.1:70000', 'nohost', '10.0.0.1:80'])('run --tcp %s', async (target) => {
    await expectUsageError(['run', '--tcp', target], /--tcp/);
  });

  it('--tcp 127.999.0.1 is not an IPv4 loopback address (decided without a name lookup)', async () => {
    expect(isLoopback('127.999.0.1')).toBe(false);
    expect(isLoopback('127.0.0.1')).toBe(true);
    await expectUsageError(['run', '--tcp', '127.999.0.1:5555'], '--tcp host must be a loopback address (an IPv4 address in 127.0.0.0/8, ::1 or localhost): udsvstcp measures local transports only; got "127.999.0.1"');
  });

  it('run --uds with a path over the platform limit', async () => {
    await expectUsageError(['run', '--uds', `/tmp/${'x'.repeat(120)}`], /--uds path is 125 bytes; the limit on \w+ is 10[37] bytes/);
  });

  it('run --transport tcp with only --uds given', async () => {
    await expectUsageError(['run', '--transport', 'tcp', '--uds', join(tmp.dir, 'a.sock')], '--transport tcp needs --tcp HOST:PORT when a target is given (or give no target to start a server)');
    await expectUsageError(['run', '--transport', 'uds', '--tcp', '127.0.0.1:9'], '--transport uds needs --uds PATH when a target is given (or give no target to start a server)');
  });

  // the words that name the transports come from their declarations (lib/transports/: target, reachesNetns, channel)
  it.each([
    [['--tcp', '127.0.0.1:9', '--transport', 'tcp,uds-abstract'], '--transport uds-abstract needs a server of ours: give no --tcp or --uds target (they name tcp and uds servers only)'],
    [['--workload', 'proxy', '--tcp', '127.0.0.1:9'], '--tcp and --uds are not for the proxy workload: it starts its own app server and nginx'],
    [['--server-netns', '--uds', '/tmp/nothing-here.sock'], '--server-netns runs the server udsvstcp starts in a network namespace: not with --tcp or --uds (a server not ours)'],
    [['--server-netns', '--transport', 'tcp,worker'], '--transport worker cannot reach a server in a network namespace (--server-netns): an abstract socket belongs to the namespace it was made in, and ipc-json, ipc-advanced and worker echo inside the trial itself, with no server to put there; use tcp and uds'],
  ])('run %j names the transports in full', async (flags, message) => {
    await expectUsageError(['run', ...flags, '--duration', '10ms'], message);
  });

  it('run --workload proxy --nginx /nonexistent', async () => {
    await expectUsageError(['run', '--workload', 'proxy', '--nginx', '/nonexistent', '--duration', '50ms', '--warmup', '10ms'], /^udsvstcp: error: --nginx \/nonexistent: not an executable file/);
  });
});

describe('serve', () => {
  it.each(['-1', '65536', 'http'])('serve --port=%s', async (port) => {
    await expectUsageError(['serve', `--port=${port}`], /--port must be a whole number from 0 to 65535/);
  });

  it('serve --uds with a path over the platform limit', async () => {
    await expectUsageError(['serve', '--uds', join(tmp.dir, 'y'.repeat(110))], /the limit on \w+ is 10[37] bytes/);
  });

  it('serve --host that is not a loopback address, without --allow-remote', async () => {
    await expectUsageError(['serve', '--host', '8.8.8.8'], '--host must be a loopback address (an IPv4 address in 127.0.0.0/8, ::1 or localhost); got "8.8.8.8". Add --allow-remote to bind it anyway');
  });

});

describe('sweep', () => {
  /** @param {string} name */
  const out = (name) => join(tmp.dir, name);

  it.each([
    [{ runs: [3] }, 'spec.json "runs" must be a JSON number, a whole number from 1 to 1000; got [3]'],
    [{ runs: '2' }, 'spec.json "runs" must be a JSON number, a whole number from 1 to 1000; got "2"'],
    [{ duration: true }, 'spec.json "duration" must be a duration from 10 ms to 1 h, a JSON string with a unit ("500ms", "2s") or a JSON number of seconds; got true'],
    [{ test: { test: {} } }, 'spec.json "test.test": a "test" block holds the keys it changes for --test, not another "test" block'],
    [{ pin: ['split'] }, 'spec.json "pin" must be "none", "split" or "same"; got ["split"]'],
    [{ depths: [[1]] }, 'spec.json "depths" must be a list of whole numbers ([1, 16]), or "auto" (rate, http-rate, proxy-rate, redis-rate, postgres-rate); got [[1]]'],
    [{ depths: '1,16' }, 'spec.json "depths" must be a list of whole numbers ([1, 16]), or "auto" (rate, http-rate, proxy-rate, redis-rate, postgres-rate); got the JSON string "1,16" (a comma-separated list is for the flag --depths)'],
    [{ transports: 'tcp,uds' }, 'spec.json "transports" must be a list of transport names ("tcp", "uds", "uds-abstract"); got the JSON string "tcp,uds" (a comma-separated list is for the flag --transports)'],
    [{ transports: 'tcp' }, 'spec.json "transports" must be a list of transport names ("tcp", "uds", "uds-abstract"); got the JSON string "tcp"'],
    [{ sizes: '64,128' }, 'spec.json "sizes" must be a list of sizes ([1, 64, "1KiB"]) or a range string ("1..16384"); got the JSON string "64,128" (a comma-separated list is for the flag --sizes)'],
    [{ test: { transports: 'tcp,uds' } }, 'spec.json "test.transports" must be a list of transport names ("tcp", "uds", "uds-abstract"); got the JSON string "tcp,uds" (a comma-separated list is for the flag --transports)'],
    [{ test: { packets: '100' } }, 'spec.json "test.packets" must be a JSON number, a whole number from 1 to 20000000; got "100"'],
  ])('a spec value of the wrong type %j is refused naming the key', async (keys, message) => {
    await writeFile(join(tmp.dir, 'spec.json'), JSON.stringify({ sizes: [64], ...keys }));
    await expectUsageError(['sweep', join(tmp.dir, 'spec.json'), '--out', out('results')], message);
    expect((await readdir(tmp.dir)).sort()).toEqual(['spec.json', 'tmp']);
  });

  it.each([
    [{ seed: 1.5 }, 'spec.json "seed" must be a whole number from 0 to 4294967295; got 1.5'],
    [{ warmup: 1.5 }, 'spec.json "warmup" must be a packet count from 0 to 10000000 (a bare number: 1000) or a time up to 10 min (with a unit: 250ms, 1s, 10min); got 1.5'],
    [{ depths: [1, 2.5] }, 'spec.json "depths" must be a whole number from 1 to 65536; got 2.5'],
    [{ sizes: [64, 100] }, 'spec.json "sizes" must be a power of two from 1 B to 64 MiB (e.g. 64, 1k, 64KiB, 1MiB); got 100'],
  ])('a spec number out of range %j is quoted as the number given, not as a string', async (keys, message) => {
    await writeFile(join(tmp.dir, 'spec.json'), JSON.stringify({ sizes: [64], ...keys }));
    await expectUsageError(['sweep', join(tmp.dir, 'spec.json'), '--out', out('results')], message);
    expect((await readdir(tmp.dir)).sort()).toEqual(['spec.json', 'tmp']);
  });

  it.each([
    ['quick', '1..2GiB', '--sizes range must lie within 1 B to 64 MiB (packet size); got "1..2GiB"'],
    ['quick', '64..1GiB*4', '--sizes range must lie within 1 B to 64 MiB (packet size); got "64..1GiB*4"'],
    ['eliben-2019-throughput', '512..4KiB', '--sizes range must lie within 1 KiB to 64 MiB (chunk size); got "512..4KiB"'],
  ])('sweep %s --sizes %s past the axis names the range given, not a size it expands to, nothing made', async (preset, sizes, message) => {
    await expectUsageError(['sweep', preset, '--sizes', sizes, '--out', out('results')], message);
    expect(existsSync(out('results'))).toBe(false);
  });

  it('sweep --max-time past 24 h: its range as the help writes it, nothing made', async () => {
    await expectUsageError(['sweep', 'quick', '--precision', '3%', '--max-time', '25h', '--out', out('results')], '--max-time must be a duration from 1 s to 24 h (e.g. 2s, 1min, 1h; a bare number is seconds); got "25h"');
    expect(existsSync(out('results'))).toBe(false);
  });

  it('sweep --packets with --duration, as run refuses them', async () => {
    await expectUsageError(['sweep', 'quick', '--packets', '10', '--duration', '1s', '--out', out('results')], '--packets and --duration exclude each other: give one');
    expect(existsSync(out('results'))).toBe(false);
  });

  it.each([
    [['--sizes', '64'], '--sizes'],
    [['--depths', '1000'], '--depths'],
    [['--workload', 'echo'], '--workload'],
    [['--transports', 'tcp,uds'], '--transports'],
    [['--runs', '1'], '--runs'],
    [['--rates', '1000'], '--rates'],
  ])('a chained preset with a flag that changes a part\'s plan (%j) is refused naming it, nothing made', async (flag, name) => {
    await expectUsageError(['sweep', 'latency-under-load', '--test', ...flag, '--out', out('results')], `${name} would change the plan of a part of the chained preset latency-under-load (echo: echo-under-load, http: http-under-load); sweep a part's preset alone to change it, e.g. udsvstcp sweep echo-under-load ${name} …`);
    expect(existsSync(out('results'))).toBe(false);
  });

  it('sweep --rates with --depths (one axis), or for a closed-loop workload, is refused naming it, nothing made', async () => {
    await expectUsageError(['sweep', '--workload', 'rate', '--rates', '1000', '--depths', '2000', '--out', out('results')], '--rates and --depths name one axis: give one');
    await expectUsageError(['sweep', 'quick', '--rates', '1000', '--out', out('results')], '--rates is for the open-loop workloads (rate, http-rate, proxy-rate, redis-rate, postgres-rate), whose depth axis is the offered rate; echo takes --depths');
    await expectUsageError(['sweep', '--workload', 'rate', '--rates', '0', '--out', out('results')], /^udsvstcp: error: --rates must be /);
    expect(existsSync(out('results'))).toBe(false);
  });

  it('a chained preset through sweepOutcome() (one sweep) is refused, saying it is a chain', async () => {
    const { sweepOutcome } = await import('../../lib/api/sweep.js');
    await expect(sweepOutcome({ preset: 'latency-under-load', out: out('results') })).rejects.toThrow('latency-under-load is a chained preset (its parts are sweeps of their own): sweep() or udsvstcp sweep runs it, part by part');
    expect(existsSync(out('results'))).toBe(false);
  });

  it('a proxy sweep with --nginx /nonexistent makes no results directory', async () => {
    await expectUsageError(['sweep', 'myhro-2017-nginx', '--test', '--nginx', '/nonexistent', '--out', out('results')], /^udsvstcp: error: --nginx \/nonexistent: not an executable file/);
    expect(existsSync(out('results'))).toBe(false);
  });
});

describe('a TMPDIR that is not an absolute path to a directory', () => {
  /** @type {string | undefined} */
  let saved;
  beforeEach(() => { saved = process.env.TMPDIR; });
  afterEach(() => { process.env.TMPDIR = saved; });

  it('relative, with a proxy sweep: exit 2 naming TMPDIR, no results directory made', async () => {
    process.env.TMPDIR = 'rel';
    const out = join(tmp.dir, 'results');
    await expectRefused(['sweep', 'myhro-2017-nginx', '--test', '--out', out], 'udsvstcp: error: TMPDIR "rel" is not an absolute path; the temp dir holds the server\'s socket file');
    expect(existsSync(out)).toBe(false);
    expect(existsSync('rel')).toBe(false);
  });

  it.each([
    ['run', ['run', '--packets', '100']],
    ['serve', ['serve']],
    ['sweep --resume', ['sweep', '--resume', 'anything']],
  ])('missing, with %s: exit 2 naming TMPDIR before anything starts', async (_, args) => {
    const missing = join(tmp.dir, 'no-such-dir');
    process.env.TMPDIR = missing;
    await expectRefused(args, `udsvstcp: error: TMPDIR ${missing} does not exist`);
    expect(existsSync(missing)).toBe(false);
  });
});
