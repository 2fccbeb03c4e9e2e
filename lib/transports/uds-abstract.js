/**
 * A Linux abstract-namespace Unix socket: a name starting with a NUL byte (`\0udsvstcp-<random>`), not a file, so
 * nothing to clean up and no stale path; Node takes it as a `path`. nginx cannot forward to one (no proxy workload).
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';

/** Names tried before giving up: a clash of 64 random bits is not expected even once. */
const ATTEMPTS = 3;

/** @type {import('./transport.js').Transport} */
export const udsAbstract = {
  name: 'uds-abstract',
  label: 'UDS abstract',
  what: 'a Linux abstract-namespace Unix domain stream socket (\\0udsvstcp-<random>): no file',
  carries: ['messages', 'stream'],
  platforms: ['linux'],
  fixedSendBuffer: true,
  cpu: 'client: the lane process; server: the server process',
  async listen(server, { backlog }) {
    for (let attempt = 1; ; attempt++) {
      const path = `\0udsvstcp-${randomBytes(8).toString('hex')}`;
      try {
        await once(server.listen({ path, backlog }), 'listening'); // rejects on 'error'
        return { address: { path } };
      } catch (error) {
        if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EADDRINUSE' || attempt >= ATTEMPTS) throw error;
      }
    }
  },
  describe: (t) => `uds-abstract @${String(t.path).slice(1)}`, // `\0name` as ss(8) shows it
  connectOptions: (t) => ({ path: t.path }),
  http: (t) => ({ origin: 'http://localhost', socketPath: t.path }),
};
