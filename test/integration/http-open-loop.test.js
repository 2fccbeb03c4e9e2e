/**
 * HTTP in open loop (the http-rate and proxy-rate workloads) on real
 * sockets: the HTTP load client's segments send request j on connection
 * j mod C, the connections taking turns; a server stopped (SIGSTOP) in the
 * middle of a one-segment trial shows in the response-time p99 with every
 * request accounted for, over the spec's connections and no more; and
 * `run --json` gives each transport the open-loop figures, directly and
 * through a real nginx.
 */
import http from 'node:http';
import { createHistogram } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpLoad } from '../../lib/client/http-load.js';
import { startFixture } from '../../lib/fixture/fixture.js';
import { runLanes } from '../../lib/trial/lanes.js';
import { HISTOGRAM } from '../../lib/workloads/common.js';
import { getWorkload } from '../../lib/workloads/index.js';
import { callMain } from '../helpers/cli.js';
import { response, startRawHttpServer } from '../helpers/http-servers.js';
import { expectPinnedRunKeys } from '../helpers/schema.js';
import { stallOnce } from '../helpers/server-stall.js';

describe('the HTTP load client in open loop', () => {
  /** @type {http.Server} */
  let server;
  /** requests answered per connection (its remote port), in order of arrival */
  const perConnection = new Map();
  beforeAll(async () => {
    server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
      const port = req.socket.remotePort;
      perConnection.set(port, (perConnection.get(port) ?? 0) + 1);
      res.writeHead(200, { 'content-length': 64 });
      res.end(Buffer.alloc(64, 'x'));
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  });
  afterAll(() => new Promise((resolve) => server.close(() => resolve(undefined))));

  it('a segment of 30 requests at 300/s over 3 connections: 10 on each, each timed from when it was due', async () => {
    const address = /** @type {import('node:net').AddressInfo} */ (server.address());
    const histograms = { service: createHistogram(HISTOGRAM), lag: createHistogram(HISTOGRAM) };
    const load = createHttpLoad({ transport: 'tcp', host: '127.0.0.1', port: address.port }, {
      connections: 3, path: '/64', expectedBytes: 64, timeoutMs: 5000,
      open: { rate: 300, cap: 100, histograms },
    });
    const response = createHistogram(HISTOGRAM);
    try {
      const segment = /** @type {import('../../lib/client/http-load.js').HttpBlock & import('../../lib/client/open-driver.js').SegmentTimes} */ (await load.block(30, response));
      expect(segment).toMatchObject({ requests: 30, sent: 30, dropped: 0, bytes: 30 * 64, connects: 0 });
      expect(segment.end - segment.start).toBeGreaterThanOrEqual(29 * (1000 / 300)); // the last was due 29 gaps after the first
    } finally {
      await load.close();
    }
    // the connections were opened by one request each before the segment, then took turns: 1 + 10 on each
    expect([...perConnection.values()]).toEqual([11, 11, 11]);
    expect(response.count).toBe(30);
    expect(histograms.service.count).toBe(30);
    expect(histograms.lag.count).toBe(30);
    // a request's response time (from when it was due) is at least its service time (from when it was written)
    for (const p of [50, 90, 99, 100]) expect(response.percentile(p)).toBeGreaterThanOrEqual(histograms.service.percentile(p));
  });
  it('closed during a segment: the segment fails as closed, and so does a block asked of it after', async () => {
    const address = /** @type {import('node:net').AddressInfo} */ (server.address());
    const load = createHttpLoad({ transport: 'tcp', host: '127.0.0.1', port: address.port }, {
      connections: 2, path: '/64', expectedBytes: 64, timeoutMs: 5000, open: { rate: 100, cap: 100 },
    });
    await load.block(2); // the connections opened, a first short segment
    const segment = load.block(100).then(() => null, (error) => error); // a second of schedule
    await new Promise((resolve) => setTimeout(resolve, 50));
    await load.close();
    expect(await segment).toMatchObject({ code: 'ERR_CLOSED', message: expect.stringMatching(/^closed with \d+ requests in flight$/) });
    await expect(load.block(1)).rejects.toMatchObject({ code: 'ERR_CLOSED' });
  });
});

describe('the HTTP load client in open loop, a body that takes longer than --timeout', () => {
  it('is no stall while its bytes keep arriving: 8 chunks 60 ms apart under a 200 ms timeout', async () => {
    // the first request (the connection's opening one) is answered at once; the next one's body trickles in
    const slow = await startRawHttpServer((socket, waiting) => {
      for (const n of waiting) {
        if (n === 0) {
          socket.write(response(8));
          continue;
        }
        socket.write(response(8).subarray(0, -8));
        for (let k = 0; k < 8; k++) setTimeout(() => socket.write('y'), 60 * (k + 1));
      }
      return waiting.length;
    });
    const load = createHttpLoad(slow.target, { connections: 1, expectedBytes: 8, timeoutMs: 200, open: { rate: 100, cap: 10 } });
    try {
      const segment = await load.block(1, createHistogram(HISTOGRAM));
      expect(segment).toMatchObject({ requests: 1, dropped: 0 });
      expect(segment.end - segment.start).toBeGreaterThanOrEqual(400); // the body took 480 ms, over twice the timeout
    } finally {
      await load.close();
      await slow.close();
    }
  });
});

describe('http-rate: a server stall in open loop', () => {
  const STALL_MS = 400;
  const RATE = 200;
  /** @type {import('../../lib/fixture/fixture.js').Fixture} */
  let fixture;
  beforeAll(async () => {
    fixture = await startFixture(getWorkload('http-rate'), { noDelay: true, connections: 2 });
  });
  afterAll(() => fixture?.stop());

  it('the requests due during the stall wait for it, p99 shows it, none is left out', async () => {
    // the server is stopped once it has read at least 100 requests of 40 bytes or more (undici's GETs are
    // longer): past the opening round and the warmup, inside the one measured segment of 2 s
    const stop = await stallOnce(fixture, { afterPackets: 100, stallMs: STALL_MS, size: 40 });
    const before = (await fixture.snapshot()).connections_total;
    try {
      const { records } = await runLanes(/** @type {import('../../lib/workloads/workload.js').TrialSpec} */ ({
        workload: 'http-rate', targets: [fixture.targets.tcp], size: 64, depth: RATE, connections: 2, seed: 3, noDelay: true, timeoutMs: 10_000,
        measure: { packets: 2 * RATE }, warmup: { packets: 10 },
      }), { server: fixture, limitMs: 60_000 });
      const r = records[0];
      expect(r.status, String(r.error)).toBe('ok');
      expect(stop(), 'the server was stopped once, while the trial ran').toBe(1);
      expect(r).toMatchObject({ workload: 'http-rate', requests: 2 * RATE, blocks: 1, dropped: 0, incomplete: 0, rate_target: RATE });
      expect(r.resp_max_us).toBeGreaterThanOrEqual(STALL_MS * 1000 * 0.9);
      // about RATE × STALL_MS = 80 of 400 requests wait for the stall, from STALL_MS down: p99 is hundreds of ms
      expect(r.resp_p99_us).toBeGreaterThan(STALL_MS * 1000 * 0.5);
      expect(r.resp_p90_us).toBeGreaterThan(1000);
      expect(r.rate_completed).toBeGreaterThan(RATE * 0.9); // and the backlog drained once the server went on
      expect((await fixture.snapshot()).connections_total - before, 'the spec\'s 2 connections, no more').toBe(2);
    } finally {
      stop();
    }
  }, 60_000);
});

// the runs below measure counts, not --duration: a timed trial measures at least 8 segments of 100 ms per transport,
// and the pacer spins the client's CPU between requests due within 2 ms; 100 requests at 500/s are 2 segments
describe('run --workload http-rate --json', () => {
  it('a record per transport with the open-loop figures; the header names the connections', async () => {
    const { code, stdout, stderr } = await callMain(['run', '--rate', '500', '--connections', '3', '--packets', '100', '--warmup', '25', '--transport', 'tcp,uds', '--json']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('http-rate body size 64 B × offered rate (requests/s) 500');
    expect(stderr).toContain('3 connections taking turns');
    const records = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(records.map((r) => r.transport)).toEqual(['tcp', 'uds']);
    for (const r of records) {
      expectPinnedRunKeys(r, 'http-rate');
      expect(r).toMatchObject({ workload: 'http-rate', status: 'ok', rate_target: 500, dropped: 0, incomplete: 0, limit: expect.stringMatching(/^(none|server|generator)$/) });
      expect(r.rate_sent).toBeLessThanOrEqual(500 * 1.0005); // never faster than asked
      for (const key of ['resp_p50_us', 'resp_p99_us', 'svc_p50_us', 'svc_p99_us', 'lag_p50_us', 'server_cpu_us_per_req', 'client_cpu_us_per_req', 'rate_completed']) {
        expect(r[key], key).toBeGreaterThan(0);
      }
      expect(r.resp_p50_us).toBeGreaterThanOrEqual(r.svc_p50_us);
      expect(r.resp_p99_us).toBeGreaterThanOrEqual(r.svc_p99_us);
    }
  }, 60_000);
});

describe('run --workload proxy-rate --server-work 300us --json', () => {
  it('through a real nginx: the open-loop figures, nginx\'s CPU per request, and the app server\'s work, for both upstreams', async () => {
    const { code, stdout, stderr } = await callMain(['run', '--workload', 'proxy-rate', '--rate', '500', '--connections', '2', '--server-work', '300us', '--packets', '100', '--warmup', '25', '--json']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('the server spinning 300 µs per request (--server-work)');
    // the server's CPU share is left out where a row missed its rate (a loaded machine): then the line has the p99's alone
    expect(stderr, stderr).toMatch(/^ {2}with 300 µs of server work per request, UDS (saved|added) \d+ % (of|to) the resp p99 µs( and (saved|added) \d+ % (of|to) the server CPU µs\/req)? of TCP$/m);
    const records = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(records.map((r) => r.transport)).toEqual(['tcp', 'uds']);
    for (const r of records) {
      expectPinnedRunKeys(r, 'proxy-rate');
      expect(r).toMatchObject({ workload: 'proxy-rate', status: 'ok', rate_target: 500, dropped: 0, incomplete: 0 });
      expect(r.resp_p99_us).toBeGreaterThanOrEqual(r.svc_p99_us);
      expect(r.proxy_cpu_us_per_req).toBeGreaterThan(0);
      expect(r.server_cpu_us_per_req).toBeGreaterThanOrEqual(300); // the app server behind nginx spun for each request
    }
  }, 60_000);
});
