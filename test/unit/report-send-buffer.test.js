import { describe, expect, it } from 'vitest';
import { sendBufferWarning } from '../../lib/report/machine.js';

/**
 * A report section with its sizes (figures do not matter here).
 * @param {string} workload
 * @param {number} depth
 * @param {number[]} sizes
 * @param {string | null} [node]
 */
const section = (workload, depth, sizes, node = null) => /** @type {import('../../lib/report/findings.js').Section} */ (/** @type {unknown} */ ({ workload, node, depth, sizes: sizes.map((size_bytes) => ({ size_bytes, figures: {} })) }));
const machine = (/** @type {unknown} */ wmem) => ({ sysctl: { 'net.core.wmem_default': wmem } });

describe('the send-buffer warning', () => {
  it('names the echo groups with more bytes in flight than wmem_default, once each across Node versions', () => {
    const sections = [section('echo', 1, [1024, 65536]), section('echo', 16, [1024, 16384, 65536]), section('echo', 16, [65536], 'v26.10.0')];
    const warning = sendBufferWarning(sections, machine(212992));
    // 16 KiB x 16 = 256 KiB and 64 KiB x 16 = 1 MiB exceed 208 KiB; 64 KiB x 1 does not
    expect(warning).toMatch(/^at 16 KiB depth 16, 64 KiB depth 16 more bytes are in flight than UDS's send buffer holds \(net\.core\.wmem_default, 212992 B here;/);
    // the bench is in the repository, not the package that npx fetches: the warning says where it runs
    expect(warning).toContain('(docs/regimes.md: in a clone of the repository, sudo npm run bench:wmem measures both)');
  });

  it('names stream chunks larger than the buffer', () => {
    expect(sendBufferWarning([section('stream', 1, [65536, 524288, 4194304])], machine(212992))).toMatch(/^at 512 KiB chunks, 4 MiB chunks more bytes/);
  });

  it('says nothing when everything fits, for other workloads, or without the sysctl', () => {
    expect(sendBufferWarning([section('echo', 16, [65536])], machine(4194304))).toBeNull();
    expect(sendBufferWarning([section('http', 16, [1 << 20])], machine(212992))).toBeNull();
    expect(sendBufferWarning([section('echo', 16, [65536])], machine(null))).toBeNull();
    expect(sendBufferWarning([section('echo', 16, [65536])], null)).toBeNull();
  });

  it('says nothing where no transport with a fixed send buffer was measured (TCP and a worker thread)', () => {
    const measured = (/** @type {string[]} */ transports) => [{ ...section('echo', 16, [65536]), transports }];
    expect(sendBufferWarning(measured(['tcp', 'worker']), machine(212992))).toBeNull();
    expect(sendBufferWarning(measured(['tcp', 'uds-abstract']), machine(212992))).toMatch(/^at 64 KiB depth 16 more bytes/);
  });
});
