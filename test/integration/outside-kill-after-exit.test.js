/**
 * A server not ours is signalled by its pid only while that pid is known to
 * be it: once its guard has waited for it, the pid may be another process's
 * (pids are reused), so kill() after its exit signals nothing. Real
 * redis-server (CI installs it) and a real `sleep` under a guard.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { spawnGuarded, superviseGuarded } from '../../lib/fixture/guard.js';
import { findRedisServer, startRedis } from '../../lib/fixture/redis-process.js';

afterEach(() => { vi.restoreAllMocks(); });

describe('a guarded server is signalled only while its pid is still it', () => {
  it('ours() holds while the leader runs and not once it exited; end() then signals nothing by its pid', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'udsvstcp-redis-'));
    try {
      const guarded = await spawnGuarded({ command: 'sleep', args: ['30'], cwd: dir, privateDir: dir });
      const kill = vi.fn();
      const supervised = superviseGuarded(guarded, { name: 'sleep', code: 'ERR_TEST', privateDir: dir, kill });
      expect(guarded.pid).toBeGreaterThan(0);
      expect(guarded.ours()).toBe(true);
      expect(supervised.ours()).toBe(true);
      process.kill(guarded.pid, 'SIGKILL');
      await guarded.exited;
      expect(supervised.ours()).toBe(false);
      const signals = vi.spyOn(process, 'kill');
      await supervised.end([{ signal: 'SIGTERM', waitMs: 100 }], 100);
      expect(kill).not.toHaveBeenCalled();
      expect(signals.mock.calls.filter(([pid]) => Math.abs(Number(pid)) === guarded.pid)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('redis-server gone (killed from outside): kill() sends no signal to its pid or group', async () => {
    const redis = await startRedis({ binary: findRedisServer() });
    try {
      process.kill(redis.pid, 'SIGKILL');
      await redis.exited;
      const signals = vi.spyOn(process, 'kill');
      redis.kill();
      await redis.stop();
      expect(signals.mock.calls.filter(([pid]) => Math.abs(Number(pid)) === redis.pid)).toEqual([]);
    } finally {
      vi.restoreAllMocks();
      await redis.stop().catch(() => {});
    }
  });
});
