/**
 * The mechanism figures of real trials against real server processes, over
 * TCP and UDS: context switches and read/write calls per unit, client and
 * server, summed over blocks. Only structure and robust inequalities — facts
 * of the mechanism, never of speed:
 *  - a ping-pong message takes at least one read and one write at each end;
 *  - the client leaves the CPU for (nearly) every echo at depth 1 and far
 *    less often at depth 16 (measured here 10 times under a load average of
 *    25–30: depth 1 0.55–1.03 voluntary switches per message, depth 16
 *    0.056–0.064); waits and preemptions are counted together, since a
 *    preempted client finds its echo waiting and need not wait for it;
 *  - a 512 KiB chunk takes at least 8 reads of at most 64 KiB at the sink,
 *    and more writes over UDS, whose send buffer (net.core.wmem_default)
 *    does not grow, than over TCP, whose does (measured 10 times: UDS
 *    4.2–5.3, TCP 1.18–1.45 writes per chunk);
 *  - the server's snapshots do not count their own replies.
 * Read and write calls need /proc/self/io (Linux).
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer } from '../../lib/fixture/server-process.js';
import { runLanes } from '../../lib/trial/lanes.js';
import { WORKLOADS } from '../../lib/workloads/index.js';

const linux = existsSync('/proc/self/io');
const KiB = 1024;

/** @type {import('../../lib/fixture/server-process.js').ServerProcess} */
let echo;
/** @type {import('../../lib/fixture/server-process.js').ServerProcess} */
let sink;
beforeAll(async () => {
  [echo, sink] = await Promise.all([spawnServer({ handler: 'echo' }), spawnServer({ handler: 'sink' })]);
});
afterAll(() => Promise.all([echo?.stop(), sink?.stop()]));

/**
 * Both transports of a server process, UDS first.
 * @param {import('../../lib/fixture/server-process.js').ServerProcess} server
 * @returns {import('../../lib/client/transport.js').Target[]}
 */
const targets = (server) => [{ transport: 'uds', path: server.uds.path }, { transport: 'tcp', ...server.tcp }];

/**
 * One trial of both transports as a sweep runs it, each lane in a process of its own (a client's counters
 * are its process's), its server's snapshots as the probe; its records by transport.
 * @param {import('../../lib/fixture/server-process.js').ServerProcess} server
 * @param {Partial<import('../../lib/workloads/workload.js').TrialSpec>} spec
 */
async function trial(server, spec) {
  const result = await runLanes(/** @type {import('../../lib/workloads/workload.js').TrialSpec} */ ({
    workload: 'echo', size: 64, depth: 1, seed: 1, noDelay: true, timeoutMs: 10_000, measure: { ms: 100 }, warmup: { ms: 30 },
    ...spec, targets: targets(server),
  }), { server: { snapshot: () => server.snapshot() }, limitMs: 60_000 });
  for (const r of result.records) expect(r.status, String(r.error)).toBe('ok');
  const by = (/** @type {string} */ t) => /** @type {Record<string, any>} */ (result.records.find((r) => r.transport === t));
  return { tcp: by('tcp'), uds: by('uds'), blocks: result.blocks };
}

/**
 * An echo trial of counts, not of time (a timed trial measures at least 8 blocks per lane, after 3 of warmup): two
 * blocks of the floor (100 × depth packets) after one.
 * @param {number} depth
 */
const echoTrial = (depth) => trial(echo, { depth, measure: { packets: 200 * depth }, warmup: { packets: 100 * depth } });

/** @type {ReturnType<typeof trial> | undefined} */
let sixteenTrial;
/** The depth-16 echo trial, run once for the tests that look at it. */
const atSixteen = () => (sixteenTrial ??= echoTrial(16));

describe('mechanism figures', () => {
  it.skipIf(!linux)('ping-pong: at least a read and a write per message at each end; the client waits for most echoes at depth 1, far fewer at depth 16', async () => {
    const one = await echoTrial(1);
    const sixteen = await atSixteen();
    for (const t of /** @type {const} */ (['tcp', 'uds'])) {
      for (const column of ['client_reads_per_msg', 'client_writes_per_msg', 'server_reads_per_msg', 'server_writes_per_msg']) {
        expect(one[t][column], `${t} ${column}`).toBeGreaterThanOrEqual(1);
      }
      // at depth 1 the client waits for most echoes: it leaves the CPU (voluntarily, or preempted when the machine is busy) for a third of them at least
      expect(one[t].client_vcsw_per_msg + one[t].client_ivcsw_per_msg, t).toBeGreaterThanOrEqual(0.3);
      // and leaves it far less often at depth 16, where one wait serves a batch of echoes. Waits and preemptions
      // are counted together: on a loaded machine a client preempted at depth 1 finds its echo waiting and leaves
      // voluntarily less often than at depth 16 (uds 0.015 against 0.059 in a coverage run beside two other sweeps)
      const switches = (/** @type {Record<string, any>} */ r) => r.client_vcsw_per_msg + r.client_ivcsw_per_msg;
      expect(switches(sixteen[t]), t).toBeLessThan(switches(one[t]));
    }
  });

  it("sum a trial's figures over its blocks", async () => {
    const { tcp, uds, blocks } = await atSixteen();
    const columns = WORKLOADS.echo.columns.filter((c) => /_(vcsw|ivcsw|reads|writes)_per_msg$/.test(c));
    expect(columns).toHaveLength(8);
    for (const record of [tcp, uds]) {
      const mine = blocks.filter((b) => b.transport === record.transport);
      for (const column of columns) {
        if (record[column] === null) continue; // reads and writes without /proc/self/io
        const sum = mine.reduce((s, b) => s + b[column] * b.packets, 0);
        expect(record[column] * record.packets, `${record.transport} ${column}`).toBeCloseTo(sum, 6);
        expect(Math.abs(sum - Math.round(sum)), column).toBeLessThan(1e-6); // a count of events
      }
    }
  });

  it.skipIf(!linux)('512 KiB chunks: at least 8 reads of 64 KiB at the sink, and more writes per chunk over UDS than over TCP', async () => {
    const { tcp, uds } = await trial(sink, { workload: 'stream', size: 512 * KiB, measure: { ms: 150 }, warmup: { ms: 50 } });
    for (const r of [tcp, uds]) {
      expect(r.server_reads_per_chunk, r.transport).toBeGreaterThanOrEqual(8);
      expect(r.client_writes_per_chunk, r.transport).toBeGreaterThanOrEqual(1);
    }
    expect(uds.client_writes_per_chunk).toBeGreaterThan(tcp.client_writes_per_chunk);
  });

  it.skipIf(!linux)("leave the server's replies to snapshots out of its write calls", async () => {
    const before = await echo.snapshot();
    for (let i = 0; i < 20; i++) await echo.snapshot();
    const after = await echo.snapshot();
    // 21 replies were written in between; what is left is the process's own odd call (V8 and libuv wake-ups)
    // (whether it slept in between is not asserted: one CI run under load found the next request waiting each time, 21 in a row)
    expect(/** @type {number} */ (after.counters?.writes) - /** @type {number} */ (before.counters?.writes)).toBeLessThan(10);
  });
});
