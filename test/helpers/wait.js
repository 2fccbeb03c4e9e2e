/**
 * Waiting on a condition, not for a time: tests that must see something
 * happen (a socket closed, a process gone, bytes arrived) poll for it,
 * bounded in count and in time, instead of sleeping and hoping.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Poll `check` every `everyMs` until it holds or `timeoutMs` has passed.
 * @param {() => unknown} check
 * @param {{ timeoutMs?: number, everyMs?: number }} [options]
 * @returns {Promise<boolean>} whether it held; the caller asserts
 */
export async function waitFor(check, { timeoutMs = 5000, everyMs = 5 } = {}) {
  const deadline = Date.now() + timeoutMs;
  const most = Math.ceil(timeoutMs / Math.max(1, everyMs)) + 1;
  for (let i = 0; i < most; i++) {
    if (check()) return true;
    if (Date.now() >= deadline) break;
    await sleep(everyMs);
  }
  return Boolean(check());
}
