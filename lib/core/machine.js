/**
 * The machine facts that set the regimes a sweep measures, for meta.json's `machine`: the socket-buffer and TCP sysctls
 * (an AF_UNIX socket's send buffer is net.core.wmem_default and never grows; loopback TCP autotunes up to tcp_wmem's
 * maximum), virtualisation, and how idle CPUs sleep and wake. All read without root; what a system lacks is null, never
 * an error. The wake-up probe, which starts processes, is lib/machine/wakeup-probe.js.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readText } from './environment.js';
import { readProgramOutput } from './programs.js';

/** The sysctls recorded, by name; each read from /proc/sys/<name with / for .>. */
const SYSCTLS = [
  'net.core.rmem_default',
  'net.core.rmem_max',
  'net.core.wmem_default',
  'net.core.wmem_max',
  'net.ipv4.tcp_rmem',
  'net.ipv4.tcp_wmem',
  'net.ipv4.tcp_no_metrics_save',
  'net.ipv4.tcp_autocorking',
  'net.core.somaxconn',
  'net.unix.max_dgram_qlen',
];

/**
 * A sysctl's value: a number, a list of numbers ("4096 16384 4194304"), the text where it is neither, null if unreadable.
 * @param {string | null} text
 */
export function parseSysctl(text) {
  if (text === null) return null;
  const fields = text.split(/\s+/);
  if (fields.every((f) => /^-?\d+$/.test(f))) return fields.length === 1 ? Number(fields[0]) : fields.map(Number);
  return fields.join(' ');
}

/**
 * @param {string} [root] where /proc/sys is (for tests)
 * @returns {{ sysctl: Record<string, number | number[] | string | null> | null, sysctl_note?: string }}
 */
export function readSysctls(root = '/proc/sys') {
  if (process.platform !== 'linux') return { sysctl: null, sysctl_note: `${process.platform}: no /proc/sys; these sysctls are Linux's` };
  return { sysctl: Object.fromEntries(SYSCTLS.map((name) => [name, parseSysctl(readText(join(root, ...name.split('.'))))])) };
}

/**
 * Virtualisation: the hypervisor CPU flag (null: unknown), and systemd-detect-virt's answers where it is installed
 * (`--vm`: the hypervisor, `--container`: the container; "none" where there is none).
 */
async function readVirtualisation() {
  const [vm, container] = await Promise.all([
    readProgramOutput('systemd-detect-virt', ['--vm']),
    readProgramOutput('systemd-detect-virt', ['--container']),
  ]);
  const flags = readText('/proc/cpuinfo')?.split('\n').find((line) => /^(flags|Features)\s*:/.test(line));
  return { hypervisor_flag: flags ? /\bhypervisor\b/.test(flags) : null, vm: vm || null, container: container || null };
}

/**
 * The idle states of cpu0: name and exit latency, disabled ones marked.
 */
function readIdleStates() {
  const dir = '/sys/devices/system/cpu/cpu0/cpuidle';
  let names;
  try {
    names = readdirSync(dir).filter((n) => /^state\d+$/.test(n)).sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)));
  } catch {
    return null;
  }
  return names.map((state) => {
    const latency = readText(join(dir, state, 'latency'));
    return { name: readText(join(dir, state, 'name')) ?? state, latency_us: latency === null ? null : Number(latency), disabled: readText(join(dir, state, 'disable')) === '1' };
  });
}

/**
 * How an idle CPU sleeps and how long a guest polls before it halts: cpuidle driver and governor, cpu0's idle states,
 * the guest's haltpoll setting and KVM's halt_poll_ns (where the kvm module is loaded).
 */
function readIdle() {
  const cpuidle = '/sys/devices/system/cpu/cpuidle';
  const number = (/** @type {string} */ path) => parseSysctl(readText(path));
  return {
    cpuidle_driver: readText(join(cpuidle, 'current_driver')),
    cpuidle_governor: readText(join(cpuidle, 'current_governor')) ?? readText(join(cpuidle, 'current_governor_ro')),
    idle_states: readIdleStates(),
    guest_halt_poll_ns: number('/sys/module/haltpoll/parameters/guest_halt_poll_ns'),
    kvm_halt_poll_ns: number('/sys/module/kvm/parameters/halt_poll_ns'),
  };
}

/**
 * How many per-destination TCP metrics Linux has cached for 127.0.0.1 (applied to new connections unless
 * net.ipv4.tcp_no_metrics_save is 1); null without iproute2.
 */
async function readTcpMetrics() {
  const text = await readProgramOutput('ip', ['tcp_metrics', 'show', '127.0.0.1']);
  if (text === null) return { loopback_entries: null, loopback: null };
  const lines = text.split('\n').filter((l) => /^127\.0\.0\.1\b/.test(l));
  return { loopback_entries: lines.length, loopback: lines.slice(0, 4).join('\n') || null };
}

/**
 * Everything above, fast (a few reads of /proc and /sys, three helper programs at once, each killed after a second); never throws.
 */
export async function collectMachine() {
  const [virtualisation, tcpMetrics] = await Promise.all([readVirtualisation(), readTcpMetrics()]);
  return { ...readSysctls(), virtualisation, idle: readIdle(), tcp_metrics: tcpMetrics };
}
