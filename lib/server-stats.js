/**
 * What a server process says about itself at a block boundary, and the
 * difference between two such snapshots. A fixture with a proxy in front
 * (nginx) adds the proxy's CPU (lib/fixture.js reads it from /proc).
 */
/**
 * @typedef {object} ServerStats a snapshot; subtract two with diffServerStats
 * @property {number} pid
 * @property {number} uptime_ms
 * @property {{ user: number, system: number }} cpu microseconds since the process started
 * @property {{ idle: number, active: number }} elu event-loop idle and active milliseconds since start
 * @property {number} bytes_in
 * @property {number} bytes_out
 * @property {number} connections_active
 * @property {number} connections_total
 * @property {number} buffered_bytes bytes queued in user space for writing, summed over connections
 * @property {{ user: number, system: number } | null} [proxy_cpu] microseconds, summed over the proxy's processes
 */

/**
 * What the server did between two snapshots.
 * @param {ServerStats} before
 * @param {ServerStats} after
 */
export function diffServerStats(before, after) {
  const cpuUs = (after.cpu.user - before.cpu.user) + (after.cpu.system - before.cpu.system);
  const active = after.elu.active - before.elu.active;
  const idle = after.elu.idle - before.elu.idle;
  const proxy = before.proxy_cpu && after.proxy_cpu ? (after.proxy_cpu.user - before.proxy_cpu.user) + (after.proxy_cpu.system - before.proxy_cpu.system) : null;
  return {
    cpu_us: cpuUs,
    proxy_cpu_us: proxy,
    elu: active + idle > 0 ? active / (active + idle) : 0,
    elu_active_ms: active,
    elu_idle_ms: idle,
    bytes_in: after.bytes_in - before.bytes_in,
    bytes_out: after.bytes_out - before.bytes_out,
  };
}
