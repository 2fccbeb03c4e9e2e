/**
 * What the machine set, for people (docs/regimes.md): meta.json's `machine` and its sessions' CPU time as rows of the
 * report's environment section, and a warning wherever the machine, not the transport, may have set a result: waking
 * idle CPUs, UDS's send buffer, somaxconn, the hypervisor's steal. Pure.
 */
import { formatSize } from '../core/units.js';
import { backlogWarning } from '../core/backlog.js';
import { quantile } from '../stats/describe.js';
import { PAIR, getTransport, isTransport, labelOf, orderTransports } from '../transports/index.js';
import { connectionsAt, depthLabel, workloadOf } from '../workloads/index.js';
import { estimatesOf } from './estimates.js';

/** A wake-up share of the depth-1 round trip above this dominates it: the report says so. */
const WAKE_SHARE_DOMINATES = 0.5;

/** The figure a depth-1 round trip is read from (summary.csv metric). */
const RTT_METRIC = 'rtt_mean_us';

/** @param {number} us */
const micro = (us) => `${us >= 100 ? Math.round(us) : us.toFixed(1)} µs`;

/**
 * Was the machine busy as the probe ran (a 1-minute load of at least one per CPU)?
 * @param {Record<string, any>} wakeup
 */
function wasBusy(wakeup) {
  return typeof wakeup.load_1m === 'number' && typeof wakeup.cpu_count === 'number' && wakeup.load_1m >= wakeup.cpu_count;
}

/**
 * One line about the probe, or why there is none.
 * @param {Record<string, any> | null | undefined} machine meta.json's machine
 */
export function describeWakeup(machine) {
  const w = machine?.wakeup;
  if (!w) return `wake-up probe: none${machine?.wakeup_note ? ` (${machine.wakeup_note})` : ''}`;
  const busy = w.cross_cpu_busy ? `, cross-CPU with both CPUs busy ${micro(w.cross_cpu_busy.p50_us)}` : '';
  const cost = w.wake_cost_us > 0 ? `waking an idle CPU adds about ${micro(w.wake_cost_us)} per round trip` : 'cross-CPU no slower than same-CPU: no wake-up cost seen';
  const loaded = wasBusy(w)
    ? `; the machine was busy (load ${w.load_1m.toFixed(1)} on ${w.cpu_count} CPUs), its CPUs seldom idle, so these figures say little about waking an idle one`
    : '';
  return `wake-up probe: same-CPU ${micro(w.same_cpu.p50_us)}, cross-CPU ${micro(w.cross_cpu.p50_us)}${busy} (median 1-byte round trips, Node over UDS); ${cost}${loaded}`;
}

/**
 * @typedef {object} Share
 * @property {string} transport
 * @property {number} size_bytes
 * @property {number} rtt_us the depth-1 mean round trip
 * @property {number} share of it that the probe's wake-up cost is, at most 1
 */

/**
 * @typedef {object} WakeupFinding what to say of the wake-up cost's share of depth-1 round trips
 * @property {Share[]} shares each transport's and size's (none where both ends shared one CPU)
 * @property {string | null} warning where waking an idle CPU is most of a round trip
 * @property {string | null} note instead of both, where both ends shared one CPU: no cross-CPU wake-up was paid
 */

/**
 * What to say of the wake-up cost's share of depth-1 mean round trips, given how the ends were pinned.
 * @param {Omit<Share, 'share'>[]} rtts
 * @param {Record<string, any> | null | undefined} machine
 * @param {unknown} pinning meta.json's `pinning` or a --pin value (`same`: both ends on one CPU); null: unpinned
 * @returns {WakeupFinding}
 */
export function wakeupFinding(rtts, machine, pinning) {
  const cost = machine?.wakeup?.wake_cost_us;
  // a probe on a busy machine, whose CPUs were seldom idle, measured waiting for a CPU, not waking one
  const usable = typeof cost === 'number' && Number.isFinite(cost) && cost > 0 && !wasBusy(machine?.wakeup);
  const shares = usable ? rtts.filter((r) => Number.isFinite(r.rtt_us) && r.rtt_us > 0).map((r) => ({ ...r, share: Math.min(1, cost / r.rtt_us) })) : [];
  if (!shares.length) return { shares, warning: null, note: null };
  if (typeof pinning === 'string' && /^same\b/.test(pinning)) {
    return { shares: [], warning: null, note: `both ends of every round trip ran on one CPU (--pin same): no cross-CPU wake-up is paid, so the wake-up probe's cost (about ${micro(cost)} with the ends on two CPUs) is not part of these round trips` };
  }
  // each transport's median share over the depth-1 sizes, in whole percent
  const by = orderTransports(shares.map((s) => s.transport)).map((t) => ({ transport: t, percent: Math.round(quantile(shares.filter((s) => s.transport === t).map((s) => s.share).sort((a, b) => a - b), 0.5) * 100) }));
  if (!by.some((s) => s.percent > WAKE_SHARE_DOMINATES * 100)) return { shares, warning: null, note: null };
  const w = machine?.wakeup;
  const percent = by.length > 1 && new Set(by.map((s) => s.percent)).size > 1 ? by.map((s) => `${s.percent} % (${labelOf(s.transport)})`).join(' and ') : `${by[0].percent} %`;
  const warning = `at depth 1, about ${percent} of a round trip here is waking an idle CPU (probe: same-CPU ${micro(w.same_cpu.p50_us)}, cross-CPU ${micro(w.cross_cpu.p50_us)}); depth-1 ratios mostly measure this machine's wake-ups`;
  return { shares, warning, note: null };
}

/**
 * The same for a report's sections: each transport's depth-1 mean round trip, size by size.
 * @param {import('./findings.js').Section[]} sections
 * @param {Record<string, any> | null | undefined} machine
 * @param {unknown} pinning
 * @returns {WakeupFinding}
 */
export function wakeupOfSections(sections, machine, pinning) {
  const rtts = sections.filter((s) => s.depth === 1).flatMap((section) => section.sizes.flatMap((row) => (section.transports ?? PAIR).map((transport) => ({ transport, size_bytes: row.size_bytes, rtt_us: Number(row.figures[RTT_METRIC] ? estimatesOf(row.figures[RTT_METRIC])[transport]?.value : NaN) }))));
  return wakeupFinding(rtts, machine, pinning);
}

/** @param {unknown} v */
const text = (v) => (v === null || v === undefined ? 'unknown' : Array.isArray(v) ? v.join(' ') : String(v));

/**
 * Rows (label, value) for the report's environment section: a sysctl that meta.json holds as a number stays a number
 * (results.xlsx types its cell), everything else is text.
 * @param {Record<string, any> | null | undefined} machine
 * @param {import('./findings.js').Section[]} [sections] for the share of the depth-1 round trip
 * @param {unknown} [pinning] meta.json's `pinning`: with both ends on one CPU the share row says none was paid
 * @returns {[string, string | number][]}
 */
export function machineRows(machine, sections = [], pinning = null) {
  if (!machine) return [];
  /** @type {[string, string | number][]} */
  const rows = [];
  const v = machine.virtualisation;
  if (v) {
    const flag = v.hypervisor_flag === null ? 'hypervisor CPU flag unknown' : `hypervisor CPU flag ${v.hypervisor_flag ? 'set' : 'not set'}`;
    rows.push(['virtualisation', `${v.vm ?? 'unknown (no systemd-detect-virt)'}; ${flag}${v.container && v.container !== 'none' ? `; container ${v.container}` : ''}`]);
  }
  const idle = machine.idle;
  if (idle) {
    const states = Array.isArray(idle.idle_states) ? idle.idle_states.map((/** @type {any} */ s) => `${s.name} ${s.latency_us ?? '?'} µs${s.disabled ? ' (disabled)' : ''}`).join(', ') : 'unknown';
    rows.push(['cpuidle', `driver ${text(idle.cpuidle_driver)}, governor ${text(idle.cpuidle_governor)}; cpu0 states: ${states}`]);
    rows.push(['halt polling', `guest_halt_poll_ns ${text(idle.guest_halt_poll_ns)}, kvm halt_poll_ns ${text(idle.kvm_halt_poll_ns)}`]);
  }
  if (machine.sysctl) for (const [name, value] of Object.entries(machine.sysctl)) rows.push([name, typeof value === 'number' && Number.isFinite(value) ? value : text(value)]);
  else if (machine.sysctl_note) rows.push(['sysctls', machine.sysctl_note]);
  const metrics = machine.tcp_metrics;
  if (metrics) rows.push(['tcp_metrics 127.0.0.1', metrics.loopback_entries === null ? 'unknown (no iproute2)' : `${metrics.loopback_entries} cached entr${metrics.loopback_entries === 1 ? 'y' : 'ies'}`]);
  rows.push(['wake-up probe', describeWakeup(machine).replace(/^wake-up probe: /, '')]);
  const { shares, note } = wakeupOfSections(sections, machine, pinning);
  if (shares.length) rows.push(['wake-up share of the depth-1 round trip', shares.map((s) => `${labelOf(s.transport)} ${formatSize(s.size_bytes)} ${Math.round(s.share * 100)} % of ${micro(s.rtt_us)}`).join('; ')]);
  if (note) rows.push(['wake-up share of the depth-1 round trip', `none: ${note}`]);
  return rows;
}

/** A session whose vCPUs lost more than this share of their time to the host: the report says so. */
const STEAL_WORTH_SAYING = 0.02;

/** @param {number} share */
const percent = (share) => `${(share * 100).toFixed(1)} %`;

/**
 * @param {unknown} sessions meta.json's sessions (their cpu: lib/core/cpu-times.js)
 * @returns {{ index: number, cpu: { ticks: number, busy: number, idle: number, iowait: number, steal: number } }[]}
 */
function measured(sessions) {
  if (!Array.isArray(sessions)) return [];
  return sessions.flatMap((s, index) => {
    const cpu = s?.cpu;
    const ok = cpu && ['busy', 'idle', 'iowait', 'steal'].every((k) => typeof cpu[k] === 'number' && Number.isFinite(cpu[k]));
    return ok ? [{ index, cpu }] : [];
  });
}

/**
 * The environment section's row: each session's busy, idle, iowait and steal shares.
 * @param {unknown} sessions
 * @returns {[string, string][]}
 */
export function cpuTimeRows(sessions) {
  const all = measured(sessions);
  if (!all.length) return [];
  const one = (/** @type {(typeof all)[number]} */ { index, cpu }) => `${all.length > 1 ? `session ${index}: ` : ''}busy ${percent(cpu.busy)}, idle ${percent(cpu.idle)}, iowait ${percent(cpu.iowait)}, stolen by the hypervisor ${percent(cpu.steal)}`;
  return [['CPU time during the sweep (/proc/stat, all CPUs)', all.map(one).join('; ')]];
}

/**
 * A warning when a session lost more than STEAL_WORTH_SAYING of its CPU time to the host.
 * @param {unknown} sessions
 */
export function stealWarning(sessions) {
  const worst = measured(sessions).reduce((a, b) => (a && a.cpu.steal >= b.cpu.steal ? a : b), /** @type {ReturnType<typeof measured>[number] | null} */ (null));
  if (!worst || worst.cpu.steal <= STEAL_WORTH_SAYING) return null;
  return `the hypervisor took ${percent(worst.cpu.steal)} of this machine's CPU time during the sweep (steal in /proc/stat): its host was busy, so the figures are lower and the runs spread more than on a quiet host; sweeps made at other times can differ by more than their intervals`;
}

/**
 * Where more bytes were in flight than UDS's send buffer (net.core.wmem_default, which never grows) holds, in
 * sections that measured such a transport: docs/regimes.md#more-in-flight-than-udss-send-buffer-holds.
 * @param {import('./findings.js').Section[]} sections
 * @param {Record<string, any> | null | undefined} machine meta.json's machine
 */
export function sendBufferWarning(sections, machine) {
  const buffer = machine?.sysctl?.['net.core.wmem_default'];
  if (typeof buffer !== 'number' || !Number.isFinite(buffer) || buffer <= 0) return null;
  const over = sections
    .filter((s) => workloadOf(s.workload).bytesInFlight && (s.transports ?? PAIR).some((t) => isTransport(t) && getTransport(t).fixedSendBuffer))
    .flatMap((s) => s.sizes.filter((row) => row.size_bytes * s.depth > buffer).map((row) => ({ s, row })));
  if (!over.length) return null;
  const group = (/** @type {import('./findings.js').Section} */ s, /** @type {number} */ size) => {
    const { axes } = workloadOf(s.workload);
    return `${formatSize(size)} ${axes.depth.max === 1 ? axes.size.short : depthLabel(s.workload, s.depth)}`; // 512 KiB chunks, 16 KiB depth 16
  };
  const groups = [...new Set(over.map(({ s, row }) => group(s, row.size_bytes)))];
  return `at ${groups.join(', ')} more bytes are in flight than UDS's send buffer holds (net.core.wmem_default, ${buffer} B here; a Unix socket's never grows, TCP's does): the UDS sender waits for the receiver again and again, so these ratios follow how soon it is woken and can move between sweeps by more than their intervals; raise net.core.wmem_default to measure the transport instead (docs/regimes.md: in a clone of the repository, sudo npm run bench:wmem measures both)`;
}

/**
 * Where somaxconn capped the server's listen backlog below the connections a trial opened at once: a UDS
 * connect then fails at once (EAGAIN) where TCP's waits for a SYN retry (lib/core/backlog.js).
 * @param {import('./findings.js').Section[]} sections
 * @param {Record<string, any> | null | undefined} meta meta.json: its machine's sysctl, else its environment's
 */
export function somaxconnWarning(sections, meta) {
  const recorded = meta?.machine?.sysctl?.['net.core.somaxconn'] ?? meta?.environment?.net?.somaxconn;
  const somaxconn = typeof recorded === 'string' && /^\d+$/.test(recorded) ? Number(recorded) : recorded;
  if (typeof somaxconn !== 'number') return null;
  const widest = sections
    .map((s) => ({ s, connections: connectionsAt(workloadOf(s.workload), s.depth) }))
    .reduce((a, b) => (b.connections > a.connections ? b : a), { s: /** @type {import('./findings.js').Section | null} */ (null), connections: 0 });
  if (!widest.s) return null;
  return backlogWarning({ connections: widest.connections, somaxconn, flag: depthLabel(widest.s.workload, widest.s.depth) });
}
