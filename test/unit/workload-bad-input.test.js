/**
 * Options a workload does not take, and workloads that do not exist: one
 * line naming the flag (or spec key), exit 2, and nothing started — no
 * server, nothing in TMPDIR, no results directory. main() runs in this
 * process with streams passed in (it resolves and validates before it
 * starts anything); test/cli/bad-input.test.js checks the binary's wiring.
 */
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WORKLOAD_NAMES } from '../../lib/workloads/index.js';
import { usePrivateTmpdir } from '../helpers/temp.js';
import { expectRefused } from '../helpers/in-process.js';

const tmp = usePrivateTmpdir();

/**
 * A usage error: exit 2, one line on stderr matching `message`, nothing on
 * stdout, nothing started (no server line, TMPDIR left empty).
 * @param {string[]} args
 * @param {RegExp} message
 */
async function expectUsageError(args, message) {
  await expectRefused(args, message);
  expect(await readdir(tmp.tmpdir)).toEqual([]);
}

describe('run: an option its workload does not take', () => {
  it.each([
    [['--workload', 'echo', '--connections', '10'], /^udsvstcp: error: --connections applies to the http, proxy, http-rate, proxy-rate, postgres and postgres-rate workloads; echo takes --depth/],
    [['--workload', 'http', '--depth', '4'], /^udsvstcp: error: --depth applies to the echo, stream, connect and redis workloads; http takes --connections/],
    [['--workload', 'proxy', '--depth', '4'], /^udsvstcp: error: --depth applies to .*; proxy takes --connections/],
    [['--workload', 'stream', '--pipelining', '2'], /^udsvstcp: error: --pipelining applies to the http and proxy workloads, not stream/],
    [['--workload', 'http', '--keepalive'], /^udsvstcp: error: --keepalive applies to the proxy and proxy-rate workloads, not http/],
    [['--workload', 'echo', '--keepalive'], /^udsvstcp: error: --keepalive applies to the proxy and proxy-rate workloads, not echo/],
    [['--workload', 'connect', '--greeting'], /^udsvstcp: error: --greeting applies to the echo /],
    [['--workload', 'stream', '--nginx', '/usr/sbin/nginx'], /^udsvstcp: error: --nginx applies to the proxy and proxy-rate workloads, not stream/],
    [['--workload', 'http', '--packets', '100'], /^udsvstcp: error: --packets applies to the echo, rate, http-rate, proxy-rate, redis-rate and postgres-rate workloads; http measures a duration/],
    [['--workload', 'echo', '--rate', '5'], /^udsvstcp: error: --rate applies to the rate, http-rate, proxy-rate, redis-rate and postgres-rate workloads; echo takes --depth \(packets in flight\)$/m],
    [['--arrivals', 'poisson'], /^udsvstcp: error: --arrivals applies to the rate, http-rate, proxy-rate, redis-rate and postgres-rate workloads, not echo$/m],
    [['--rate', '1000', '--arrivals', 'bursty'], /^udsvstcp: error: --arrivals must be constant \(a packet every 1\/rate\) or poisson .*; got "bursty"$/m],
    [['--rate', '0'], /^udsvstcp: error: --rate must be .*1 .*1000000/m],
    [['--rate', '100', '--pipelining', '2'], /^udsvstcp: error: --pipelining applies to the http and proxy workloads, not rate$/m],
    [['--connections', '5', '--arrivals', 'poisson'], /^udsvstcp: error: --arrivals applies to the rate, http-rate, proxy-rate, redis-rate and postgres-rate workloads, not http$/m],
    [['--rate', '1000', '--depth', '4'], /^udsvstcp: error: --rate applies to the rate, http-rate, proxy-rate, redis-rate and postgres-rate workloads; echo takes --depth/m],
    [['--rate', '1000', '--connections', '0'], /^udsvstcp: error: --connections must be a whole number from 1 to 1024; got "0"$/m],
    [['--workload', 'http-rate', '--connections', '1025'], /^udsvstcp: error: --connections must be a whole number from 1 to 1024; got "1025"$/m],
    // postgres-rate's connections are the cluster's, both transports' within its max_connections: the closed postgres's most
    [['--workload', 'postgres-rate', '--rate', '100', '--connections', '31'], /^udsvstcp: error: --connections must be a whole number from 1 to 30; got "31"$/m],
    [['--workload', 'redis-rate', '--connections', '2'], /^udsvstcp: error: --connections applies to the http, proxy, http-rate, proxy-rate, postgres and postgres-rate workloads; redis-rate takes --rate/m],
    [['--workload', 'http-rate', '--pipelining', '2'], /^udsvstcp: error: --pipelining applies to the http and proxy workloads, not http-rate$/m],
    [['--workload', 'http-rate', '--keepalive'], /^udsvstcp: error: --keepalive applies to the proxy and proxy-rate workloads, not http-rate$/m],
    [['--workload', 'stream', '--server-work', '1ms'], /^udsvstcp: error: --server-work applies to the echo, http, proxy, rate, http-rate and proxy-rate workloads, not stream$/m],
    [['--server-work', '0us'], /^udsvstcp: error: --server-work must be a duration from 1 µs to 100 ms \(e\.g\. 50us; a bare number is seconds\); got "0us"$/m],
    [['--workload', 'stream', '--server-delay', '1ms'], /^udsvstcp: error: --server-delay applies to the echo, http, proxy, rate, http-rate and proxy-rate workloads, not stream$/m],
    [['--transport', 'tcp,ipc-json', '--server-work', '1ms'], /^udsvstcp: error: --server-work is done by the server udsvstcp starts, and ipc-json echoes through the trial's own peer: measure ipc-json without it$/m],
    [['--server-delay', '500us'], /^udsvstcp: error: --server-delay must be a duration from 1 ms to 10 s .*; got "500us"$/m],
    [['--server-delay', '5ms', '--uds', '/tmp/x.sock'], /^udsvstcp: error: --server-delay is done by the server udsvstcp starts: not with --tcp or --uds \(a server not ours\)$/m],
    [['--server-work', '1ms', '--tcp', '127.0.0.1:1'], /^udsvstcp: error: --server-work is done by the server udsvstcp starts: not with --tcp or --uds \(a server not ours\)$/m],
    [['--workload', 'connect', '--size', '64'], /^udsvstcp: error: --size is fixed at 12 \(greeting bytes\) for this workload; got "64"/],
    [['--workload', 'stream', '--depth', '2'], /^udsvstcp: error: --depth is fixed at 1 \(streams per transport\) for this workload; got "2"/],
    // redis's --clients and --batch (issue #23): the closed redis workload's only
    [['--workload', 'echo', '--clients', '2'], /^udsvstcp: error: --clients applies to the redis workload, not echo$/m],
    [['--workload', 'redis-rate', '--batch', '16'], /^udsvstcp: error: --batch applies to the redis workload, not redis-rate$/m],
    [['--workload', 'redis', '--clients', '65'], /^udsvstcp: error: --clients must be a whole number from 1 to 64; got "65"$/m],
    [['--workload', 'redis', '--clients', '0'], /^udsvstcp: error: --clients must be a whole number from 1 to 64; got "0"$/m],
    [['--workload', 'redis', '--batch', '0'], /^udsvstcp: error: --batch must be a whole number from 1 to 256; got "0"$/m],
    [['--workload', 'redis', '--batch', '257'], /^udsvstcp: error: --batch must be a whole number from 1 to 256; got "257"$/m],
    [['--workload', 'redis', '--size', '64k', '--depth', '16', '--clients', '16', '--batch', '32'], /^udsvstcp: error: --size × --depth × --clients × --batch: value size × depth × clients × batch must be at most 256 MiB in flight; got 64 KiB × 16 × 16 × 32 = 512 MiB$/m],
  ])('run %j', async (flags, message) => {
    await expectUsageError(['run', ...flags], message);
  });

  it('run --workload nope lists the workloads', async () => {
    expect(WORKLOAD_NAMES).toEqual(['echo', 'stream', 'connect', 'http', 'proxy', 'rate', 'http-rate', 'proxy-rate', 'redis', 'postgres', 'redis-rate', 'postgres-rate']);
    await expectUsageError(['run', '--workload', 'nope'], /^udsvstcp: error: --workload must be one of echo, stream, connect, http, proxy, rate, http-rate, proxy-rate, redis, postgres, redis-rate, postgres-rate; got "nope"$/m);
  });
});

describe('sweep: an option or spec key its workload does not take', () => {
  it('sweep --workload stream --sizes 64KiB --pipelining 2 names --pipelining, not the default preset\'s echo axes', async () => {
    const out = join(tmp.dir, 'out');
    await expectUsageError(['sweep', '--workload', 'stream', '--sizes', '64KiB', '--pipelining', '2', '--out', out], /^udsvstcp: error: --pipelining applies to the http and proxy workloads, not stream$/m);
    expect(existsSync(out)).toBe(false);
  });

  it('sweep --workload http --clients 4, and a spec file\'s "batch" for echo, name the flag or key', async () => {
    const out = join(tmp.dir, 'out');
    await expectUsageError(['sweep', '--workload', 'http', '--sizes', '64', '--clients', '4', '--out', out], /^udsvstcp: error: --clients applies to the redis workload, not http$/m);
    const spec = join(tmp.dir, 'echo-batch.json');
    await writeFile(spec, JSON.stringify({ workload: 'echo', sizes: [64], batch: 16 }));
    await expectUsageError(['sweep', spec, '--out', out], /"batch" applies to the redis workload, not echo$/m);
    await expectUsageError(['sweep', '--workload', 'redis', '--sizes', '16', '--batch', '300', '--out', out], /^udsvstcp: error: --batch must be a whole number from 1 to 256; got "300"$/m);
    await expectUsageError(['sweep', '--workload', 'redis', '--sizes', '16,64k', '--depths', '1,256', '--batch', '64', '--out', out], /^udsvstcp: error: --sizes × --depths × --clients × --batch: .* got 64 KiB × 256 × 1 × 64 = 1024 MiB$/m);
    expect(existsSync(out)).toBe(false);
  });

  it('a spec file with "workload": "connect", "greeting": true names the key and the file', async () => {
    const spec = join(tmp.dir, 'connect-greeting.json');
    await writeFile(spec, JSON.stringify({ workload: 'connect', greeting: true, runs: 1, duration: '50ms', warmup: '10ms' }));
    const out = join(tmp.dir, 'out');
    await expectUsageError(['sweep', spec, '--out', out], new RegExp(`^udsvstcp: error: ${spec.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} "greeting" applies to the echo workload, not connect$`, 'm'));
    expect(existsSync(out)).toBe(false);
  });

  it('a spec file with "workload": "http", "packets" names the key: http measures a duration', async () => {
    const spec = join(tmp.dir, 'http-packets.json');
    await writeFile(spec, JSON.stringify({ workload: 'http', sizes: [64], depths: [2], runs: 1, packets: 100, warmup: '10ms' }));
    await expectUsageError(['sweep', spec, '--out', join(tmp.dir, 'out')], /"packets" applies to the echo, rate, http-rate, proxy-rate, redis-rate and postgres-rate workloads; http measures a duration/);
  });

  it('sweep --workload http --connections 4 is refused: http sweeps its connections as its depths', async () => {
    const out = join(tmp.dir, 'out');
    await expectUsageError(['sweep', '--workload', 'http', '--sizes', '64', '--connections', '4', '--out', out], /^udsvstcp: error: --connections applies to the http-rate, proxy-rate and postgres-rate workloads; http sweeps its connections as its depths$/m);
    expect(existsSync(out)).toBe(false);
  });

  it('sweep --workload postgres-rate --connections 31 is refused with its range, nothing started', async () => {
    const out = join(tmp.dir, 'out');
    await expectUsageError(['sweep', '--workload', 'postgres-rate', '--sizes', '1', '--depths', '100', '--connections', '31', '--out', out], /^udsvstcp: error: --connections must be a whole number from 1 to 30; got "31"$/m);
    expect(existsSync(out)).toBe(false);
  });

  it('sweep --server-work on the echo server with two sizes is refused: it takes the packet size from the sweep\'s one size', async () => {
    const out = join(tmp.dir, 'out');
    await expectUsageError(['sweep', '--workload', 'rate', '--sizes', '64,1024', '--depths', '1000', '--server-work', '100us', '--out', out], /^udsvstcp: error: --server-work on the echo server needs a sweep of one size \(it spins per packet, and takes the packet's size from the sweep's\); got 2 sizes$/m);
    await expectUsageError(['sweep', '--workload', 'stream', '--sizes', '64KiB', '--server-delay', '1ms', '--out', out], /^udsvstcp: error: --server-delay applies to the echo, http, proxy, rate, http-rate and proxy-rate workloads, not stream$/m);
    await expectUsageError(['sweep', '--workload', 'echo', '--sizes', '64', '--transports', 'tcp,worker', '--server-delay', '1ms', '--out', out], /^udsvstcp: error: --server-delay is done by the server udsvstcp starts, and worker echoes through the trial's own peer: measure worker without it$/m);
    expect(existsSync(out)).toBe(false);
  });

  it('sweep --workload nope lists the workloads', async () => {
    await expectUsageError(['sweep', 'quick', '--workload', 'nope', '--out', join(tmp.dir, 'out')], /--workload must be one of echo, stream, connect, http, proxy, rate, http-rate, proxy-rate, redis, postgres, redis-rate, postgres-rate; got "nope"/);
  });
});

describe('serve', () => {
  it('serve --workload nope lists the workloads', async () => {
    await expectUsageError(['serve', '--workload', 'nope', '--uds', join(tmp.dir, 's.sock')], /^udsvstcp: error: --workload must be one of echo, stream, connect, http, proxy, rate, http-rate, proxy-rate, redis, postgres, redis-rate, postgres-rate; got "nope"$/m);
  });
});
