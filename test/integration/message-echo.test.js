import { createHistogram } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { createMessagePipeline } from '../../lib/client/message-pipeline.js';
import { createPayloads } from '../../lib/client/payload.js';
import { HISTOGRAM } from '../../lib/workloads/common.js';
import { TRANSPORTS, getTransport } from '../../lib/transports/index.js';
import { descendants } from '../helpers/processes.js';
import { waitFor } from '../helpers/wait.js';

/** The message transports, and the channel each declares. */
const CHANNELS = TRANSPORTS.filter((name) => getTransport(name).channel);
const channelOf = (/** @type {string} */ name) => /** @type {import('../../lib/transports/transport.js').Channel} */ (getTransport(name).channel);

const SIZE = 1024;
const DEPTH = 4;
const PACKETS = 200;

/** Our children that run a message echo. */
const echoChildren = () => descendants(process.pid).filter((p) => p.cmdline.includes('echo-main') || p.cmdline.includes('message-echo'));

describe.each(CHANNELS)('the %s echo', (name) => {
  it(`echoes ${PACKETS} packets of 1 KiB at depth 4, each timed and verified, reports its CPU, and leaves nothing running`, async () => {
    const kind = channelOf(name);
    const payloads = createPayloads(SIZE, 7, DEPTH);
    const peer = await kind.start({});
    try {
      expect(peer.node).toBe(process.version);
      const pipeline = createMessagePipeline(peer, { payloads, codec: kind.codec(payloads), depth: DEPTH, timeoutMs: 5000 });
      const before = await peer.snapshot();
      const histogram = createHistogram(HISTOGRAM);
      const times = await pipeline.block(PACKETS, histogram);
      const after = await peer.snapshot();
      expect(times.packets).toBe(PACKETS);
      expect(times.end).toBeGreaterThan(times.start);
      expect(histogram.count).toBe(PACKETS);
      // what travelled: base64 text for JSON, the bytes themselves otherwise
      const perPacket = name === 'ipc-json' ? Buffer.from(payloads.packet(0)).toString('base64').length : SIZE;
      expect(after.bytes_in - before.bytes_in).toBe(PACKETS * perPacket);
      expect(after.cpu.user + after.cpu.system).toBeGreaterThan(before.cpu.user + before.cpu.system);
      // the IPC channel's reads are recvmsg calls, which /proc/PID/io does not count
      expect(after.counters?.reads === null).toBe(name !== 'worker');
      // a second block continues where the first ended
      expect((await pipeline.block(PACKETS)).packets).toBe(PACKETS);
      pipeline.close();
    } finally {
      await peer.stop();
    }
    await expect(peer.snapshot()).rejects.toThrow(/stopped/);
    expect(await waitFor(() => echoChildren().length === 0, { timeoutMs: 5000 })).toBe(true);
  });
});

describe('the worker thread', () => {
  it('counts its own thread: its CPU is a part of the process\'s', async () => {
    const kind = channelOf('worker');
    const payloads = createPayloads(SIZE, 7, DEPTH);
    const peer = await kind.start({});
    try {
      const pipeline = createMessagePipeline(peer, { payloads, codec: kind.codec(payloads), depth: DEPTH, timeoutMs: 5000 });
      const s0 = await peer.snapshot();
      const p0 = process.cpuUsage();
      await pipeline.block(2000);
      const p = process.cpuUsage(p0);
      const s1 = await peer.snapshot();
      const thread = (s1.cpu.user + s1.cpu.system) - (s0.cpu.user + s0.cpu.system);
      expect(thread).toBeGreaterThan(0);
      expect(thread).toBeLessThan(p.user + p.system);
      expect(s1.pid).toBe(process.pid);
    } finally {
      await peer.stop();
    }
  });
});
