/**
 * Stopping nginx leaves nothing that keeps the process alive: no timer of
 * the bounded waits for its exit is still pending once it has exited (a
 * pending 3 s wait kept every `run --workload proxy` and proxy sweep alive
 * for 3 s after its work was done). Needs nginx (CI installs it).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findNginx, startNginx } from '../../lib/fixture/nginx.js';
import { startHttpUpstream } from '../helpers/http-upstream.js';
import { waitFor } from '../helpers/wait.js';

/** Timers that keep the event loop alive (unref'd ones are not counted). */
const refTimers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

/** @type {Awaited<ReturnType<typeof startHttpUpstream>>} */
let app;
beforeAll(async () => {
  app = await startHttpUpstream();
});
afterAll(() => app.close());

it('stop() resolves with no timer of its own still holding the event loop', async () => {
  const idle = refTimers();
  const nginx = await startNginx({ binary: findNginx(), listen: [{ upstream: app.tcp }, { upstream: app.uds }] });
  // the start's own last poll may still be pending: wait until it has run out
  expect(await waitFor(() => refTimers() <= idle, { timeoutMs: 2000 })).toBe(true);
  const before = refTimers();
  await nginx.stop();
  expect(nginx.alive()).toBe(false);
  expect(refTimers()).toBeLessThanOrEqual(before);
});
