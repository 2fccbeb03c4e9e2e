/**
 * What the --server-netns tests need, said plainly: they run as root (CI
 * does) with iproute2's `ip` (.ci/run installs it). Elsewhere they fail with
 * this message, never skip.
 */
import { findIp, listNetworks } from '../../lib/fixture/netns.js';

/** iproute2's ip; throws (failing the test) when not root or no ip. */
export function needRootAndIp() {
  const ip = findIp();
  if (process.getuid?.() !== 0 || !ip) {
    throw new Error(`the --server-netns tests make network namespaces, bridges and veth pairs: run them as root with iproute2's ip installed (CI does: .ci/run); here uid ${process.getuid?.()}, ip ${ip ?? 'not found'}`);
  }
  return ip;
}

/**
 * Our namespaces and links that the process `pid` made and that are still there.
 * @param {string} ip
 * @param {number} pid
 */
export function networksOf(ip, pid) {
  const { namespaces, links } = listNetworks(ip);
  return [...namespaces.filter((n) => n.pid === pid), ...links.filter((l) => l.pid === pid)].map((x) => x.name);
}
