/**
 * nginx's CPU seconds grow under load, and stop() leaves no process and no
 * private directory behind. Needs nginx (CI installs it).
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNginx, startNginx } from '../../lib/fixture/nginx.js';
import { exists, get, startHttpUpstream } from '../helpers/http-upstream.js';

/** @param {{ user: number, system: number }} cpu */
const total = (cpu) => cpu.user + cpu.system;

describe('nginx process lifecycle', () => {
  /** @type {Awaited<ReturnType<typeof startHttpUpstream>>} */
  let app;
  /** @type {import('../../lib/fixture/nginx.js').NginxProcess} */
  let nginx;

  beforeAll(async () => {
    const binary = findNginx(); // no nginx: fails here, naming --nginx and how to install it
    app = await startHttpUpstream();
    nginx = await startNginx({ binary, listen: [{ upstream: app.tcp }, { upstream: app.uds }] });
  });
  afterAll(async () => {
    await nginx?.stop();
    await app?.close();
  });

  it('counts CPU seconds of master and workers, growing under load', async () => {
    const before = nginx.cpuSeconds();
    expect(Number.isFinite(before.user) && before.user >= 0).toBe(true);
    expect(Number.isFinite(before.system) && before.system >= 0).toBe(true);
    // /proc counts in 10 ms ticks: send requests until nginx has used at least one more
    const deadline = Date.now() + 10_000;
    let rounds = 0;
    for (; rounds < 200 && Date.now() < deadline && total(nginx.cpuSeconds()) <= total(before); rounds++) {
      await Promise.all(Array.from({ length: 20 }, (_, i) => get(nginx.ports[i % 2])));
    }
    const after = nginx.cpuSeconds();
    expect(total(after)).toBeGreaterThan(total(before));
    expect(after.user).toBeGreaterThanOrEqual(before.user);
    expect(after.system).toBeGreaterThanOrEqual(before.system);
  });

  it('stops master and workers, removes its private directory, and can be stopped twice', async () => {
    const workers = nginx.workerPids();
    expect(workers.length).toBe(1);
    expect(existsSync(nginx.privateDir)).toBe(true);
    await nginx.stop();
    expect(nginx.alive()).toBe(false);
    expect(exists(nginx.pid)).toBe(false);
    for (const pid of workers) expect(exists(pid)).toBe(false);
    expect(existsSync(nginx.privateDir)).toBe(false);
    expect(existsSync(nginx.configPath)).toBe(false); // it lived in the private directory
    await nginx.stop();
    expect(() => nginx.cpuSeconds()).toThrow(/not running/);
    await expect(get(nginx.ports[0])).rejects.toThrow(/ECONNREFUSED/);
  });
});
