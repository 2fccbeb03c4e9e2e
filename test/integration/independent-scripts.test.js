import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, runScript } from '../helpers/cli.js';

/** @param {string} transport */
const script = (transport) => fileURLToPath(new URL(`../bench/independent/${transport}.js`, import.meta.url));
const TRANSPORTS = ['tcp', 'uds', 'uds-abstract', 'ipc-json', 'ipc-advanced', 'worker'];
const TINY = ['--size', '64', '--duration', '30ms', '--warmup', '10ms', '--pin', 'none', '--timeout', '5s'];

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => { tmp = await makeTempDir(); });
afterAll(async () => { await tmp.remove(); });

/**
 * @param {string} transport
 * @param {string[]} args
 */
const runIndependent = (transport, args) => runScript(script(transport), args, { timeoutMs: 8000, env: { TMPDIR: tmp.dir } });

describe.runIf(process.platform === 'linux')('the independent echo scripts', () => {
  it('import nothing from lib/', () => {
    const dir = fileURLToPath(new URL('../bench/independent/', import.meta.url));
    for (const file of readdirSync(dir)) {
      const imports = [...readFileSync(`${dir}/${file}`, 'utf8').matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
      for (const from of imports) expect(from, `${file} imports ${from}`).toMatch(/^(node:|\.\/[\w-]+\.js$)/);
    }
  });

  for (const transport of TRANSPORTS) {
    // a pipeline of 4: its ping-pong (depth 1) is the same loop with one in flight
    it(`${transport}: one JSON line of figures at depth 4`, async () => {
      const results = await Promise.all([4].map((depth) => runIndependent(transport, [...TINY, '--depth', String(depth)])));
      for (const [k, depth] of [4].entries()) {
        const { code, stdout, stderr } = results[k];
        expect(code, stderr).toBe(0);
        const lines = stdout.trim().split('\n');
        expect(lines).toHaveLength(1);
        const report = JSON.parse(lines[0]);
        expect(Object.keys(report).sort()).toEqual(['client_ivcsw_per_msg', 'client_reads_per_msg', 'client_vcsw_per_msg', 'client_writes_per_msg', 'depth', 'msgs_per_s', 'packets', 'rtt_mean_us', 'size', 'transport']);
        expect(report).toMatchObject({ transport, size: 64, depth });
        expect(report.packets).toBeGreaterThan(0);
        expect(report.msgs_per_s).toBeGreaterThan(0);
        expect(report.rtt_mean_us).toBeGreaterThan(0);
      }
      expect(readdirSync(tmp.dir)).toEqual([]); // uds removed its socket directory
    });
  }

  for (const transport of ['tcp', 'ipc-json', 'worker']) {
    it(`${transport}: an echo end that flips a byte fails verification`, async () => {
      const { code, stdout, stderr } = await runIndependent(transport, [...TINY, '--depth', '4', '--server-corrupt']);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(new RegExp(`^independent ${transport}: verification failed: packet \\d+ byte \\d+ came back as \\d+, sent \\d+`));
    });
  }

  it('refuses bad options with exit 2', async () => {
    const { code, stderr } = await runIndependent('tcp', ['--depth', '0']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--depth must be/);
  });

  it('the driver refuses bad options with exit 2, starting nothing', async () => {
    const driver = fileURLToPath(new URL('../bench/independent.js', import.meta.url));
    expect(await runScript(driver, ['--transports', 'tcp,carrier-pigeon'], { timeoutMs: 8000 })).toEqual({
      code: 2, signal: null, stdout: '', stderr: 'independent bench: --transports must be among tcp, uds, uds-abstract, ipc-json, ipc-advanced, worker; got tcp,carrier-pigeon\n',
    });
  });
});
