/**
 * How a sweep measures, in words, for meta.json's "design".
 */
import { MIN_BLOCKS } from '../client/blocks.js';
import { PROBE_TIMEOUT_MS } from '../fixture/probe.js';
import { FILES } from '../results/writer.js';
import { getWorkload } from '../workloads/index.js';
import { MAX_FAILED_IN_A_ROW, MAX_REPLACEMENTS } from './fixture-keeper.js';

/** Unrecorded traffic through a new server before its first measured trial, per transport. */
const SERVER_WARMUP_MS = 300;

/**
 * How much the unrecorded trial that warms a new server measures per transport: 300 ms, or in test mode
 * (a check that the tool works, not figures) what a measured trial of the test block does.
 * @param {import('./spec.js').SweepSpec} spec
 * @returns {import('../workloads/workload.js').TrialSpec['measure']}
 */
export const serverWarmup = (spec) => (spec.test ? spec.measure : { ms: SERVER_WARMUP_MS });

/**
 * How the sweep measures, for meta.json.
 * @param {import('./spec.js').SweepSpec} spec
 */
export function describeDesign(spec) {
  const workload = getWorkload(spec.workload);
  return {
    workload: `${workload.name}: ${workload.what}`,
    size_axis: workload.axes.size.label,
    depth_axis: workload.axes.depth.label,
    timed: workload.timed,
    primary: workload.primary,
    pairing: spec.pairing === 'blocks'
      ? 'one trial per (run, size, depth) holds a TCP and a UDS connection to the same server, each in a fresh lane process of its own, and alternates measured blocks A B B A …; every block starts and ends with nothing in flight'
      : 'one trial, in a fresh process, per (run, size, depth, transport), as in 2014',
    block_ms_target: spec.blockMs,
    block_rule: `at least the workload's minimum block, and at least block_ms_target at the slower transport's warmup rate; a timed trial runs at least ${MIN_BLOCKS} blocks per transport; every block is in ${FILES.blocks}`,
    measured_time_per_transport_ms: 'ms' in spec.measure ? spec.measure.ms : null,
    node_axis: spec.node === null
      ? 'one Node version: the one running udsvstcp (meta.json nodes)'
      : 'each Node version (meta.json nodes; the first is the baseline) has its own server, started with that Node once and warmed, and its own lane processes; every run measures every group under every version in one seeded random order, so versions are interleaved in time; a version against the baseline, for every transport of the sweep: per run log(its ratio to TCP under the version) − log(that under the baseline), and log(figure) − log(baseline figure), Student-t 95 % interval over runs, exp() back',
    ratio_interval: `Student-t 95 % interval of the mean per-run log(UDS/TCP), exp() back: runs (fresh processes) are the replicates; ${spec.intervals === 'own' ? 'each group on its own' : 'variances moderated across groups (docs/method.md)'}`,
    precision: spec.precision,
    max_time_ms: spec.maxTimeMs,
    server_lifetime: spec.server === 'round' ? 'a fresh server for each planned run and each precision round' : 'one server for the whole sweep (a new one only after it dies)',
    proxy: workload.fixture.proxy ? { upstream_keepalive: spec.keepalive, config: 'nginx.conf in this directory' } : null,
    server_network: spec.serverNetns
      ? `the server in a network namespace of its own, joined to the host by a veth pair on a bridge (a /30 in 10.213.0.0/16, no route beyond it), as a container on a bridge network; TCP ${spec.portProxy ? 'through a port proxy on 127.0.0.1 (a Node process of ours forwarding each connection to the server\'s namespace address, as docker-proxy does for a published port; its CPU is charged to the proxy side)' : 'to the server\'s namespace address over the bridge'}; UDS through a socket file in a private directory both sides see (a shared volume)`
      : 'the server on the host, TCP on 127.0.0.1',
    server_warmup: `one unrecorded trial of the first group (${spec.test ? 'as much as a measured trial: test mode' : `${SERVER_WARMUP_MS} ms per transport`}) after the server starts`,
    fixture_health: `after a failed trial the fixture is checked: the server${workload.fixture.proxy ? ' and nginx' : ''} running, its socket file still the one it bound, and a short exchange answered on each transport within ${PROBE_TIMEOUT_MS} ms (${workload.fixture.proxy ? 'GET /1 through nginx' : `what the ${workload.fixture.server} server answers`}); a fixture that fails is killed (SIGKILL) and replaced by a new one, warmed as after a restart, at most ${MAX_REPLACEMENTS} times per session, a sweep or a resume (each in fixture_replacements, with its session and why)`,
    failure_bound: `the sweep stops (status failed, resumable) after ${MAX_FAILED_IN_A_ROW} failed trials in a row, or when the fixture would need replacing a ${MAX_REPLACEMENTS + 1}th time; precision rounds add no run to a group whose last trial failed, so they add at most one failed trial per group`,
  };
}
