/**
 * Health, not hope: the sweep's fixture, started and warmed when a trial needs it, checked after every failed trial
 * (Fixture.check), and replaced when not usable: killed at once (SIGKILL: a stopped or hung server ignores SIGTERM),
 * then a new one started and warmed. Past either bound below the sweep stops with the reason (what was measured is
 * kept, and --resume continues).
 */
import { RunError } from '../core/errors.js';

/** Replacements of an unusable fixture per sweep (each session of a resumed sweep has its own). */
export const MAX_REPLACEMENTS = 3;
/** Failed trials in a row after which the sweep stops, healthy fixture or not. */
export const MAX_FAILED_IN_A_ROW = 5;

/**
 * @typedef {object} Replacement what meta.json records of a replaced fixture
 * @property {string} at ISO time
 * @property {number} replacement its number in this session, from 1
 * @property {string} reason why the old fixture was not usable
 * @property {{ run: number, node_version: string, size_bytes: number, depth: number } | null} after the trial that failed before it (null: found before a trial)
 */

/**
 * The fixtures of a sweep, one per Node version (the key), with bounds shared by all of them.
 * @param {object} deps
 * @param {(key: string) => Promise<import('../fixture/fixture.js').Fixture>} deps.startServer
 * @param {(server: import('../fixture/fixture.js').Fixture, key: string) => Promise<void>} [deps.warmServer]
 * @param {boolean} [deps.named] notes name the Node version (a sweep of several)
 * @param {(message: string) => void} [deps.onNote]
 * @param {(replacement: Replacement) => void} [deps.onReplace]
 * @param {AbortSignal} [deps.signal] once aborted, failures are not looked into (the sweep is stopping)
 */
export function createFixtureKeeper({ startServer, warmServer, named = false, onNote, onReplace, signal }) {
  /** @type {Map<string, import('../fixture/fixture.js').Fixture>} */
  const servers = new Map();
  /** the keys whose fixture failed its check: stop them with SIGKILL */
  const unhealthy = new Set();
  let replacements = 0;
  let failedInARow = 0;

  const start = async (/** @type {string} */ key) => {
    const server = await startServer(key);
    servers.set(key, server);
    unhealthy.delete(key);
    await warmServer?.(server, key);
    return server;
  };

  /**
   * Replace a fixture, or stop the sweep when the bound is reached.
   * @param {string} key
   * @param {string} reason
   * @param {import('./schedule.js').Job | null} job the trial that failed
   */
  const replace = async (key, reason, job) => {
    unhealthy.add(key);
    if (replacements >= MAX_REPLACEMENTS) {
      throw new RunError(`sweep stopped: the server is unusable and was already replaced ${MAX_REPLACEMENTS} times, the most a session allows: ${reason}`, 'ERR_FIXTURE');
    }
    replacements++;
    onNote?.(`${reason}; replacing the server${named ? ` of Node ${key}` : ''} (replacement ${replacements} of at most ${MAX_REPLACEMENTS} in this session)`);
    onReplace?.({ at: new Date().toISOString(), replacement: replacements, reason, after: job && { run: job.run, node_version: job.node, size_bytes: job.size, depth: job.depth } });
    await servers.get(key)?.stop({ force: true });
    servers.delete(key);
    return start(key);
  };

  const stop = async () => {
    await Promise.all([...servers.keys()].map(async (key) => {
      const server = servers.get(key);
      servers.delete(key);
      await server?.stop(unhealthy.has(key) ? { force: true } : undefined);
    }));
  };

  return {
    /**
     * The fixture for the next trial: started if there is none, replaced if it died since the last trial.
     * @param {string} key the Node version
     */
    async ready(key) {
      const server = servers.get(key);
      if (!server) return start(key);
      if (!server.alive()) return replace(key, `${(await server.check?.()) ?? 'the server exited'} between trials`, null);
      return server;
    },
    /**
 * After a trial: a failed one has the fixture checked, and replaced if not usable; too many failures in a row stop the sweep.
     * @param {import('./schedule.js').Job} job
     * @param {Record<string, any>[]} rows its rows, already recorded
     */
    async afterTrial(job, rows) {
      const key = job.node;
      const failed = rows.find((r) => r.status === 'error');
      if (signal?.aborted) return;
      if (!failed) {
        failedInARow = 0;
        return;
      }
      failedInARow++;
      const server = servers.get(key);
      const why = (await server?.check?.()) ?? (server?.alive() ? null : 'the server died during the trial');
      if (why) unhealthy.add(key);
      if (failedInARow >= MAX_FAILED_IN_A_ROW) {
        throw new RunError(`sweep stopped: ${failedInARow} trials in a row failed (the most a sweep allows), the last with: ${failed.error}${why ? `; ${why}` : '; the server passed its health check'}`, 'ERR_FAILED_TRIALS');
      }
      if (why) await replace(key, why, job);
    },
    stop,
  };
}
