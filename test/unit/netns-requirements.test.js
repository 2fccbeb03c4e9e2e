/**
 * What --server-netns needs is said before anything starts: root and
 * iproute2's `ip`, each named with what to do, in one UsageError (exit 2).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../lib/core/errors.js';
import { findIp, requireNetns } from '../../lib/fixture/netns.js';

describe('requireNetns', () => {
  it.runIf(process.platform === 'linux')('names root and ip, each missing one, in one line', () => {
    const call = (/** @type {{ uid?: number, ip?: string | null }} */ found) => {
      try {
        requireNetns('--server-netns', found);
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return /** @type {Error} */ (error).message;
      }
      return 'accepted';
    };
    expect(call({ uid: 1000, ip: '/usr/sbin/ip' })).toBe('--server-netns needs root (it makes a network namespace, a bridge and a veth pair; running as uid 1000: use sudo)');
    expect(call({ uid: 0, ip: null })).toBe('--server-netns needs iproute2\'s `ip` (not on PATH or in /usr/sbin, /sbin; Debian/Ubuntu: apt-get install iproute2)');
    expect(call({ uid: 1000, ip: null })).toMatch(/^--server-netns needs root \(.*\) and iproute2's `ip` \(.*\)$/);
  });

  it('findIp looks only in the directories given', () => {
    const empty = mkdtempSync(join(os.tmpdir(), 'udsvstcp-noip-'));
    try {
      expect(findIp([empty])).toBeNull();
    } finally {
      rmSync(empty, { recursive: true });
    }
  });
});
