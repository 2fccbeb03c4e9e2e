/**
 * Where the machine's CPU time went during each session of a sweep
 * (meta.json's sessions[].cpu, lib/core/cpu-times.js), for people: a row for
 * the report's environment section and a warning when the hypervisor took a
 * share worth knowing about. Pure.
 */

/** A session whose vCPUs lost more than this share of their time to the host: the report says so. */
export const STEAL_WORTH_SAYING = 0.02;

/** @param {number} share */
const percent = (share) => `${(share * 100).toFixed(1)} %`;

/**
 * @param {unknown} sessions meta.json's sessions
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
 * @returns {string | null}
 */
export function stealWarning(sessions) {
  const worst = measured(sessions).reduce((a, b) => (a && a.cpu.steal >= b.cpu.steal ? a : b), /** @type {ReturnType<typeof measured>[number] | null} */ (null));
  if (!worst || worst.cpu.steal <= STEAL_WORTH_SAYING) return null;
  return `the hypervisor took ${percent(worst.cpu.steal)} of this machine's CPU time during the sweep (steal in /proc/stat): its host was busy, so the figures are lower and the runs spread more than on a quiet host; sweeps made at other times can differ by more than their intervals`;
}
