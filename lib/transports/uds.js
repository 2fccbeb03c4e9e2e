/**
 * A Unix domain socket bound to a file (in a private directory of the temp dir, or a given path), as a shared volume
 * or /run/app.sock gives it; bound so that closing removes only our own names (lib/fixture/socket-file.js).
 */
import { rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { checkTempSocketPath, createPrivateDir, listenOwned, prepareSocketPath } from '../fixture/socket-file.js';

/** @type {import('./transport.js').Transport} */
export const uds = {
  name: 'uds',
  label: 'UDS',
  headline: true,
  fixedSendBuffer: true,
  what: 'a Unix domain stream socket bound to a file path',
  carries: ['messages', 'stream', 'upstream'],
  platforms: null,
  upstream: 'unix',
  target: 'PATH',
  reachesNetns: true,
  cpu: 'client: the lane process; server: the server process',
  async listen(server, { path, name, backlog }) {
    if (path !== undefined) {
      await prepareSocketPath(path, '--uds');
      const owned = await listenOwned(server, path, '--uds', undefined, backlog);
      return { address: { path: owned.path }, owned };
    }
    checkTempSocketPath(`${name}.sock`); // before the directory is made
    const privateDir = await createPrivateDir();
    try {
      const owned = await listenOwned(server, join(privateDir, `${name}.sock`), 'the temp dir (TMPDIR)', privateDir, backlog);
      return { address: { path: owned.path }, owned };
    } catch (error) {
      await rmdir(privateDir).catch(() => {});
      throw error;
    }
  },
  describe: (t) => `uds ${t.path}`,
  connectOptions: (t) => ({ path: t.path }),
  http: (t) => ({ origin: 'http://localhost', socketPath: t.path }),
};
