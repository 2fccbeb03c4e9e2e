/**
 * A --duration too short for a trial's fewest blocks (issue 21, defect 5:
 * `--depth 1024 --duration 500ms` measured 819 200 packets over 8 s and said
 * nothing). The blocks keep their floor (100 × depth packets) and their
 * fewest count (8 per transport); the run says so on stderr once each
 * transport has run a block, naming --duration, and measures what it said.
 * Nothing here bounds how long the run takes. main() runs in this process;
 * the server and the trial process are real, and nothing is left running.
 */
import { describe, expect, it } from 'vitest';
import { MIN_BLOCKS } from '../../lib/client/blocks.js';
import { FILL_FACTOR } from '../../lib/workloads/echo.js';
import { callMainLeavingNothing } from '../helpers/in-process.js';

describe('--duration shorter than the fewest blocks', () => {
  it('run says so on stderr, before its table, naming --duration and the blocks; the records measure those blocks', async () => {
    const depth = 16;
    const { code, stdout, stderr } = await callMainLeavingNothing(['run', '--depth', String(depth), '--duration', '10ms', '--warmup', '10ms', '--json']);
    expect(code, stderr).toBe(0);
    const warnings = stderr.split('\n').filter((line) => line.startsWith('warning: --duration'));
    expect(warnings, stderr).toHaveLength(1);
    const said = /^warning: --duration 10 ms cannot hold the fewest blocks a trial measures, (\d+) per transport of at least ([\d ]+) packets \(100 × --depth 16\): at the warmup's best rate \([\d ]+ packets\/s, the slowest transport\) they take about [\d.]+ m?s per transport, and this trial about [\d.]+ m?s in all with its warmup; --duration [\d.]+ m?s or more would hold them$/.exec(warnings[0]);
    expect(said, warnings[0]).not.toBeNull();
    const [blocks, blockPackets] = [Number(said?.[1]), Number(said?.[2].replace(/ /g, ''))];
    expect(blocks).toBe(MIN_BLOCKS);
    expect(blockPackets).toBe(FILL_FACTOR * depth);
    expect(stderr.indexOf(warnings[0])).toBeLessThan(stderr.indexOf('transport  size'));
    const records = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(records.map((r) => r.transport).sort()).toEqual(['tcp', 'uds']);
    for (const r of records) {
      expect(r.status).toBe('ok');
      expect(r.blocks).toBe(blocks);
      expect(r.block_packets).toBe(blockPackets);
      expect(r.packets).toBe(blocks * blockPackets);
    }
  });
});
