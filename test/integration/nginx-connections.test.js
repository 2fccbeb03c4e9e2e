/**
 * The proxy workload's nginx holds as many connections as a trial opens: 400
 * client connections on each of its two ports at once (each with an upstream
 * connection) once worked only up to about 341, nginx's single worker having
 * `worker_connections 1024`. A trial that still runs out quotes nginx's own
 * error-log line. Real nginx, app server and load client. Needs nginx (CI installs it).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpLoad } from '../../lib/client/http-load.js';
import { startFixture, withNginxWords } from '../../lib/fixture/fixture.js';
import { runTrial } from '../../lib/trial/trial.js';
import { proxyWorkload } from '../../lib/workloads/http.js';

/** @type {import('../../lib/fixture/fixture.js').Fixture | undefined} */
let fixture;
afterEach(async () => {
  await fixture?.stop();
  fixture = undefined;
});

describe('proxy connections', () => {
  it('400 connections on each port at once, every request answered', async () => {
    fixture = await startFixture(proxyWorkload, { connections: 400 });
    const loads = [fixture.targets.tcp, fixture.targets.uds].map((target) => createHttpLoad(target, { connections: 400, path: '/64', expectedBytes: 64 }));
    try {
      // 800 client connections open, and up to 800 upstream ones at once; none closed by nginx, so none opened again
      const blocks = await Promise.all(loads.map((load) => load.block(800)));
      for (const block of blocks) expect(block.connects).toBe(0);
    } finally {
      await Promise.all(loads.map((load) => load.close()));
    }
  });

  it('a trial that needs more than nginx was sized for fails with nginx\'s own log line', async () => {
    fixture = await startFixture(proxyWorkload, { connections: 10 }); // worker_connections 1024
    const mark = fixture.nginxLog?.mark();
    const result = withNginxWords(await runTrial({
      workload: 'proxy', targets: [fixture.targets.tcp, fixture.targets.uds], size: 64, depth: 600,
      measure: { ms: 10 }, warmup: { ms: 0 }, seed: 1, noDelay: true, timeoutMs: 5000,
    }), fixture, mark);
    for (const record of result.records) {
      expect(record.status).toBe('error');
      expect(record.error).toMatch(/ \(nginx: \[warn\] 1024 worker_connections are not enough, reusing connections\)$/);
    }
  });
});
