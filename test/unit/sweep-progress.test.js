/**
 * A sweep's plain progress line (stderr not a terminal) names each trial's
 * figures in its workload's primary figure: msgs/s, GB/s, conns/s, req/s
 * (it printed "NaN msgs/s" for every workload but echo).
 */
import { PassThrough } from 'node:stream';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../lib/commands/progress.js';
import { createRecord } from '../../lib/trial/record.js';

/**
 * The line printed at the end of trial 1 of 2 with these records.
 * @param {Record<string, unknown>[]} records
 * @param {number} size
 * @param {string} workload
 */
function lineFor(records, size, workload) {
  const stream = new PassThrough();
  let text = '';
  stream.setEncoding('utf8').on('data', (t) => { text += t; });
  const progress = createProgress({ stream, quiet: false, chalk: new Chalk({ level: 0 }), workload });
  progress.end(/** @type {any} */ ({ run: 0, order: 0, size, depth: 1, transports: ['tcp', 'uds'] }), records.map(createRecord), 0, 2);
  return text;
}

describe('the progress line of a trial', () => {
  it.each([
    ['echo', 64, 'msgs_per_s', [26456.4, 42856.2], '[1/2] run 0 #0 64 B depth 1 tcp+uds: tcp 26456 msgs/s, uds 42856 msgs/s (UDS ×1.62, 8 blocks each)\n'],
    ['stream', 65536, 'gb_per_s', [2.5412, 3.998], '[1/2] run 0 #0 64 KiB streams 1 tcp+uds: tcp 2.54 GB/s, uds 4 GB/s (UDS ×1.57, 8 blocks each)\n'],
    ['connect', 12, 'conns_per_s', [3840.2, 4275.4], '[1/2] run 0 #0 12 B at once 1 tcp+uds: tcp 3840 conns/s, uds 4275 conns/s (UDS ×1.11, 8 blocks each)\n'],
    ['http', 64, 'req_per_s', [17081, 20567], '[1/2] run 0 #0 64 B connections 1 tcp+uds: tcp 17081 req/s, uds 20567 req/s (UDS ×1.20, 8 blocks each)\n'],
    ['proxy', 64, 'req_per_s', [99.5, 120.25], '[1/2] run 0 #0 64 B connections 1 tcp+uds: tcp 99.5 req/s, uds 120 req/s (UDS ×1.21, 8 blocks each)\n'],
  ])('%s: in its primary figure', (workload, size, primary, [tcp, uds], expected) => {
    const records = [['tcp', tcp], ['uds', uds]].map(([transport, value]) => ({ workload, transport, size_bytes: size, depth: 1, blocks: 8, [primary]: value }));
    expect(lineFor(records, size, workload)).toBe(expected);
  });

  it('one block each: "1 block each", not "1 blocks each"', () => {
    const records = [['tcp', 26456.4], ['uds', 42856.2]].map(([transport, value]) => ({ workload: 'echo', transport, size_bytes: 64, depth: 1, blocks: 1, msgs_per_s: value }));
    expect(lineFor(records, 64, 'echo')).toBe('[1/2] run 0 #0 64 B depth 1 tcp+uds: tcp 26456 msgs/s, uds 42856 msgs/s (UDS ×1.62, 1 block each)\n');
  });

  it('a failed trial: its error', () => {
    const records = [{ workload: 'stream', transport: 'tcp', status: 'error', error: 'the sink closed the connection before the block was counted' }, { workload: 'stream', transport: 'uds', status: 'error', error: 'x' }];
    expect(lineFor(records, 65536, 'stream')).toBe('[1/2] run 0 #0 64 KiB streams 1 tcp+uds: error: the sink closed the connection before the block was counted\n');
  });
});
