#!/usr/bin/env node
/**
 * How many packets udsvstcp's echo pipeline really holds in flight at a
 * depth: one warm block, then one measured block of `--packets` over the
 * transport, counting every packet written (a wrapped socket.write) and
 * every whole packet read, and integrating what is in flight over time. It
 * prints msgs/s, the mean round trip, their product (Little's law: the mean
 * in flight), the time average counted directly, and the sizes reads return
 * (docs/validation.md#independent-instrument).
 *
 *   node test/bench/inflight.js [--transport tcp|uds] [--size 1KiB] [--depth 16] [--packets 200000]
 */
import { createHistogram, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { startServer } from '../../lib/fixture/server.js';
import { connect } from '../../lib/client/transport.js';
import { createPipeline } from '../../lib/client/pipeline.js';
import { createPayloads } from '../../lib/client/payload.js';
import { HISTOGRAM } from '../../lib/workloads/common.js';
import { parseSize } from '../../lib/core/units.js';

const { values } = parseArgs({ options: {
  transport: { type: 'string', default: 'tcp' }, size: { type: 'string', default: '1KiB' },
  depth: { type: 'string', default: '16' }, packets: { type: 'string', default: '200000' },
} });
const size = parseSize(values.size);
const depth = Number(values.depth);
const packets = Number(values.packets);
if (!['tcp', 'uds'].includes(values.transport) || !(depth >= 1 && depth <= 1024) || !(packets >= 1000 && packets <= 10_000_000)) {
  process.stderr.write('inflight: --transport tcp or uds, --depth 1 to 1024, --packets 1000 to 10000000\n');
  process.exit(2);
}
const server = await startServer();
const target = values.transport === 'tcp' ? { transport: 'tcp', ...server.tcp } : { transport: 'uds', ...server.uds };
const reader = { fn: (/** @type {Buffer} */ _chunk) => {} };
const socket = await connect(/** @type {any} */ (target), { reader });
let inFlight = 0;
let rxBytes = 0;
let last = performance.now();
let area = 0;
const step = () => {
  const now = performance.now();
  area += inFlight * (now - last);
  last = now;
};
const write = socket.write.bind(socket);
socket.write = /** @type {any} */ ((/** @type {Buffer} */ packet) => {
  step();
  inFlight++;
  return write(packet);
});
const pipeline = createPipeline(socket, { reader, payloads: createPayloads(size, 1, depth), depth, timeoutMs: 10_000 });
const consume = reader.fn;
/** @type {Map<number, number>} */
const readSizes = new Map();
reader.fn = (/** @type {Buffer} */ chunk) => {
  step();
  rxBytes += chunk.length;
  inFlight -= Math.floor(rxBytes / size);
  rxBytes %= size;
  readSizes.set(chunk.length, (readSizes.get(chunk.length) ?? 0) + 1);
  consume(chunk);
};
await pipeline.block(Math.min(packets, 20_000)); // warm
readSizes.clear();
const histogram = createHistogram(HISTOGRAM);
area = 0;
last = performance.now();
const t = await pipeline.block(packets, histogram);
const ms = t.end - t.start;
const rate = packets / (ms / 1000);
const rttUs = histogram.mean / 1000;
process.stdout.write(`${JSON.stringify({
  node: process.version, transport: values.transport, size, depth, packets,
  msgs_per_s: rate, rtt_mean_us: rttUs, littles_law_in_flight: (rate * rttUs) / 1e6, time_average_in_flight: area / ms,
  commonest_reads: [...readSizes].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([bytes, count]) => ({ bytes, count })),
})}\n`);
pipeline.close();
socket.destroy();
await server.close();
