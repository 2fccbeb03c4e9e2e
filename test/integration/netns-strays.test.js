/**
 * A network that --server-netns made and whose maker was SIGKILLed (no exit
 * hook ran) stays on the machine; removeStrayNetworks finds it by its
 * owner's name and removes it, and leaves a live owner's network alone.
 * Needs root and iproute2 (fails, never skips, without them).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { createNetwork, removeStrayNetworks } from '../../lib/fixture/netns.js';
import { needRootAndIp, networksOf } from '../helpers/netns.js';

const NETNS = fileURLToPath(new URL('../../lib/fixture/netns.js', import.meta.url));

/** @type {string} */
let ip;
beforeAll(() => {
  ip = needRootAndIp();
});

describe('network namespaces of a killed owner', () => {
  it('are removed by removeStrayNetworks; a live owner\'s are not', async () => {
    const mine = createNetwork({ ip });
    // a process that makes a network, says so, and waits to be killed
    const code = `import { createNetwork } from ${JSON.stringify(NETNS)}; const n = createNetwork({ ip: ${JSON.stringify(ip)} }); process.stdout.write(JSON.stringify(n.namespace) + '\\n'); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [line] = /** @type {[Buffer]} */ (await once(/** @type {import('node:stream').Readable} */ (child.stdout), 'data'));
      const namespace = JSON.parse(line.toString());
      const pid = /** @type {number} */ (child.pid);
      expect(namespace).toMatch(new RegExp(`^udsvstcp-${pid}-\\d+-[0-9a-f]{6}$`));
      const made = networksOf(ip, pid);
      expect(made).toEqual(expect.arrayContaining([namespace, expect.stringMatching(/^uvtb-/), expect.stringMatching(/^uvth-/)]));
      child.kill('SIGKILL');
      await once(child, 'exit');
      expect(networksOf(ip, pid)).toEqual(made); // SIGKILL runs no exit hook: it stays
      const removed = removeStrayNetworks(ip);
      expect(removed).toEqual(expect.arrayContaining([`network namespace ${namespace}`, expect.stringMatching(/^link uvtb-/)]));
      expect(networksOf(ip, pid)).toEqual([]);
      expect(networksOf(ip, process.pid)).toEqual(expect.arrayContaining([mine.namespace, ...mine.links])); // ours: we still run
    } finally {
      child.kill('SIGKILL');
      mine.remove();
    }
    expect(networksOf(ip, process.pid)).toEqual([]);
  });
});
