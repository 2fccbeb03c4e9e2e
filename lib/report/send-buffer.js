/**
 * When a Unix socket's send buffer, not the transport, sets a ratio. An
 * AF_UNIX stream socket's send buffer is net.core.wmem_default and never
 * grows (loopback TCP's autotunes up to tcp_wmem's maximum); once more bytes
 * are in flight than it holds, the UDS sender waits for the receiver to drain
 * it, again and again, and the ratio follows how soon the receiver is woken:
 * it moves between sweeps by more than a sweep's interval says. Measured by
 * changing the cause (`sudo npm run bench:wmem`, docs/regimes.md): at 64 KiB
 * x 16 the ratio swung 0.70-1.18 between rounds with the default buffer and
 * held at 1.50-1.62 with it raised to 4 MiB. Pure.
 */
import { formatSize } from '../core/units.js';
import { PAIR, getTransport, isTransport } from '../transports/index.js';

/** Workloads whose bytes in flight are the message or chunk size times the depth. */
const STREAMING = new Set(['echo', 'stream']);

/**
 * The groups with more bytes in flight than UDS's send buffer, and the warning (for sections that measured
 * a transport whose send buffer never grows).
 * @param {import('./findings.js').Section[]} sections
 * @param {Record<string, any> | null | undefined} machine meta.json's machine
 * @returns {string | null}
 */
export function sendBufferWarning(sections, machine) {
  const buffer = machine?.sysctl?.['net.core.wmem_default'];
  if (typeof buffer !== 'number' || !Number.isFinite(buffer) || buffer <= 0) return null;
  const over = sections
    .filter((s) => STREAMING.has(s.workload) && (s.transports ?? PAIR).some((t) => isTransport(t) && getTransport(t).fixedSendBuffer))
    .flatMap((s) => s.sizes.filter((row) => row.size_bytes * s.depth > buffer).map((row) => ({ s, row })));
  if (!over.length) return null;
  const groups = [...new Set(over.map(({ s, row }) => `${formatSize(row.size_bytes)}${s.workload === 'stream' ? ' chunks' : ` depth ${s.depth}`}`))];
  return `at ${groups.join(', ')} more bytes are in flight than UDS's send buffer holds (net.core.wmem_default, ${buffer} B here; a Unix socket's never grows, TCP's does): the UDS sender waits for the receiver again and again, so these ratios follow how soon it is woken and can move between sweeps by more than their intervals; raise net.core.wmem_default to measure the transport instead (sudo npm run bench:wmem measures both; docs/regimes.md)`;
}
