import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../lib/core/errors.js';
import { listPresets, loadSpec, resolveSpec, toSizes } from '../../lib/sweep/spec.js';
import { isChained, toChain } from '../../lib/sweep/chain.js';
import { callMain, expectOneLineUsageError, makeTempDir, runCli } from '../helpers/cli.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(() => tmp.remove());

/**
 * @param {Record<string, unknown>} raw
 * @param {object} [options]
 */
const resolveRaw = (raw, options) => resolveSpec({ name: 'x', source: 'x.json', raw }, options);

describe('sweep specs', () => {
  it('ship the chained preset latency-under-load: echo-under-load, then http-under-load, each a preset of its own with a test block', () => {
    const chains = listPresets().filter((name) => isChained(loadSpec(name)));
    expect(chains).toEqual(['latency-under-load']);
    const chain = toChain(loadSpec('latency-under-load'));
    expect(chain.parts).toEqual([{ name: 'echo', preset: 'echo-under-load' }, { name: 'http', preset: 'http-under-load' }]);
    expect(chain.parts.map((p) => resolveSpec(loadSpec(p.preset), { test: true }).workload)).toEqual(['rate', 'http-rate']);
  });

  it.each([
    [{ parts: { echo: 'echo-under-load' }, runs: 3 }, 'x.json: a chained preset holds "description" and "parts" only; "runs" belongs in a part\'s preset'],
    [{ parts: {} }, 'x.json "parts" must be an object of part names and presets, e.g. {"echo": "echo-under-load", "http": "http-under-load"}'],
    [{ parts: { 'Echo/1': 'echo-under-load' } }, 'x.json "parts": "Echo/1" must be a name of lowercase letters, digits and -, up to 32 (it names the part\'s directory)'],
    [{ parts: { echo: './echo.json' } }, 'x.json "parts.echo" must name a preset in sweeps/; got "./echo.json"'],
    [{ parts: { all: 'latency-under-load' } }, 'x.json "parts.all": latency-under-load is itself a chained preset; a part is an ordinary sweep'],
  ])('a chained preset %j is refused naming the key', (raw, message) => {
    expect(() => toChain({ name: 'x', source: 'x.json', raw })).toThrow(message);
  });

  it('ship default, quick and nicmcd-2014, each with a test block', async () => {
    expect(listPresets()).toEqual(expect.arrayContaining(['default', 'quick', 'nicmcd-2014']));
    for (const name of listPresets()) {
      const loaded = loadSpec(name);
      if (isChained(loaded)) continue; // its parts are presets of this list: checked as they come
      expect(loaded.raw.test, name).toBeTypeOf('object');
      expect(resolveSpec(loaded, { test: true }).test).toBe(true);
    }
  });

  it('reproduce the 2014 sweep exactly', () => {
    const spec = resolveSpec(loadSpec('nicmcd-2014'), { flags: { seed: '1' } });
    expect(spec.sizes).toEqual(Array.from({ length: 15 }, (_, i) => 2 ** i));
    expect(spec).toMatchObject({ runs: 10, measure: { packets: 100000 }, depths: [1], transports: ['uds', 'tcp'], warmup: { packets: 0 }, noDelay: false, greeting: true });
  });

  it('read ranges of powers of two, with steps', () => {
    expect(toSizes('1..16', 'sizes')).toEqual([1, 2, 4, 8, 16]);
    expect(toSizes('64B..1MiB*16', 'sizes')).toEqual([64, 1024, 16384, 262144]);
    expect(toSizes('1k,64', 'sizes')).toEqual([64, 1024]);
  });

  it('hold a list of sizes to the workload\'s own size axis', () => {
    expect(() => resolveRaw({ workload: 'stream', sizes: ['512', '1KiB'] })).toThrow(/x\.json "sizes" must be a power of two from 1 KiB to 64 MiB/);
  });

  it('take a string for a list key only where it is the key\'s own (a range of sizes, depths auto); a flag\'s comma-separated list stays a flag\'s', () => {
    expect(resolveRaw({ workload: 'rate', sizes: '64..128', depths: 'auto' })).toMatchObject({ sizes: [64, 128], depths: [] });
    expect(() => resolveRaw({ sizes: [64], depths: '1,16' })).toThrow(/^x\.json "depths" must be a list of whole numbers .*; got the JSON string "1,16"/);
    expect(() => resolveRaw({ sizes: [64], transports: 'tcp,uds' })).toThrow(/^x\.json "transports" must be a list of transport names .*; got the JSON string "tcp,uds"/);
    expect(resolveRaw({ sizes: [64] }, { flags: { sizes: '64,128', depths: '1,16', transports: 'tcp,uds' } })).toMatchObject({ sizes: [64, 128], depths: [1, 16], transports: ['tcp', 'uds'] });
  });

  it('let flags override the preset, and --packets replace its duration', () => {
    const spec = resolveRaw({ sizes: [64], duration: '1s' }, { flags: { sizes: '1..4', packets: '500', runs: '2' } });
    expect(spec).toMatchObject({ sizes: [1, 2, 4], runs: 2, measure: { packets: 500 } });
  });

  it.each([
    [{ sizes: [3] }, /x\.json "sizes" must be a power of two/],
    [{ sizes: [] }, /x\.json "sizes" must be a non-empty list/],
    [{ sizes: [64], depths: [] }, /"depths" must be a non-empty list/],
    [{ sizes: [64], transports: [] }, /"transports" must be one of tcp, uds, uds-abstract, ipc-json, ipc-advanced, worker, or a list of them/],
    [{ sizes: [64], transports: ['udp'] }, /"transports" must be one of tcp, uds, uds-abstract, ipc-json, ipc-advanced, worker, or a list of them/],
    [{ sizes: [64], runs: 0 }, /"runs" must be a whole number from 1 to 1000/],
    [{ sizes: [64], colour: 'red' }, /x\.json: unknown key "colour"/],
    [{ sizes: [64], test: { nope: 1 } }, /x\.json "test": unknown key "nope"/],
    [{ sizes: [64], pin: 'all' }, /"pin" must be split, same or none/],
    [{ sizes: [64], packets: 10, duration: '1s' }, /"packets" and "duration" exclude each other/],
    [{ depths: [1] }, /"sizes" is required/],
    [{ sizes: '8..2' }, /"sizes" range must be A\.\.B/],
    [{ sizes: [64], precision: '0.05%' }, /"precision" must be a relative half-width of the UDS\/TCP 95 % interval from 0\.1% to 100%/],
    [{ sizes: [64], precision: '150%' }, /"precision" must be a relative half-width/],
    [{ sizes: [64], maxTime: '100ms' }, /"maxTime" must be a duration from 1 s to 24 h/],
    [{ sizes: [64], pairing: 'pairs' }, /"pairing" must be blocks or trials/],
    [{ sizes: [64], server: 'run' }, /"server" must be sweep \(one server throughout\) or round/],
    [{ sizes: [64], block: '0ms' }, /"block" must be a duration from 1 ms to 10 s/],
  ])('refuse %j naming the key', (raw, message) => {
    expect(() => resolveRaw(raw)).toThrow(UsageError);
    expect(() => resolveRaw(raw)).toThrow(message);
  });

  it('name the flag when a flag is wrong', () => {
    expect(() => resolveRaw({ sizes: [64] }, { flags: { depths: '0' } })).toThrow(/^--depths must be a whole number from 1 to 65536/);
    expect(() => resolveRaw({ sizes: [64] }, { flags: { precision: '3 percent' } })).toThrow(/^--precision must be a relative half-width/);
    expect(() => resolveRaw({ sizes: [64] }, { flags: { maxTime: 'soon' } })).toThrow(/^--max-time must be a duration/);
  });
});

describe('udsvstcp sweep refuses bad input before anything starts (exit 2, one line)', () => {
  /**
   * @param {string[]} args
   * @param {RegExp | string} message
   */
  async function expectUsageError(args, message) {
    const { code, stdout, stderr } = await callMain(['sweep', ...args]);
    expect(code, stderr).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
  }

  it('an unknown preset', async () => {
    await expectUsageError(['nosuch'], new RegExp(`unknown preset "nosuch"; presets: ${listPresets().join(', ')} \\(or a path`));
  });

  it('malformed JSON in a spec file', async () => {
    await writeFile(join(tmp.dir, 'bad.json'), '{ "sizes": [1, }');
    await expectUsageError([join(tmp.dir, 'bad.json')], /bad\.json: malformed JSON/);
  });

  it('a size that is not a power of two, from a flag', async () => {
    await expectUsageError(['quick', '--sizes', '1,3'], /--sizes must be a power of two/);
  });

  it('an output directory that already holds results, untouched', async () => {
    const out = join(tmp.dir, 'old');
    await mkdir(out);
    await writeFile(join(out, 'trials.csv'), 'keep');
    await expectUsageError(['quick', '--out', out], /--out .*old already holds results; use --resume/);
    expect(await readFile(join(out, 'trials.csv'), 'utf8')).toBe('keep');
  });

  it('an output directory that is not writable (a file is in the way)', async () => {
    const file = join(tmp.dir, 'afile');
    await writeFile(file, 'x');
    await expectUsageError(['quick', '--out', join(file, 'sub')], /--out .* is not a writable directory/);
  });

  it('an output directory under /proc, a chain\'s too: refused at once (Node\'s recursive mkdir spun there at 100 % CPU for ever, deaf to Ctrl-C)', async () => {
    for (const preset of ['quick', 'latency-under-load']) {
      // the binary, with a time limit: in this process the old spin would never return
      const result = await runCli(['sweep', preset, '--test', '--no-probe', '--out', '/proc/udsvstcp-test-nosuch/r'], { timeoutMs: 20_000 });
      expectOneLineUsageError(result, /^udsvstcp: error: --out \/proc\/udsvstcp-test-nosuch\/r is not a writable directory: ENOENT/);
    }
  });

  it('--resume of a directory without results', async () => {
    await expectUsageError(['--resume', tmp.dir], /--resume .* holds no sweep results/);
  });

  it('--resume of a path that is not there, or not a directory, says so (it said "holds no sweep results")', async () => {
    const file = join(tmp.dir, 'afile');
    await writeFile(file, 'x');
    await expectUsageError(['--resume', join(tmp.dir, 'nosuch')], `--resume ${join(tmp.dir, 'nosuch')} does not exist: it takes the results directory of a sweep to complete`);
    await expectUsageError(['--resume', file], `--resume ${file} is not a directory: it takes the results directory of a sweep to complete`);
    expect(await readFile(file, 'utf8')).toBe('x');
  });
});

describe('sweep --workload NAME without a preset', () => {
  it("takes that workload's own defaults, not the default preset's echo sizes", async () => {
    const { resolveSweep } = await import('../../lib/sweep/request.js');
    const tmp = await makeTempDir();
    try {
      for (const [name, size, depth] of /** @type {const} */ ([['stream', 1048576, 1], ['connect', 12, 1], ['http', 64, 10], ['proxy', 64, 10]])) {
        const request = resolveSweep({ workload: name, test: true, out: join(tmp.dir, name) });
        expect(request.spec).toMatchObject({ preset: name, workload: name, sizes: [size], depths: [depth], test: true, runs: 2 });
      }
      expect(resolveSweep({ workload: 'echo', out: join(tmp.dir, 'e') }).spec).toMatchObject({ preset: 'default', workload: 'echo' });
      // hours, as the help's "1 s to 24 h" (2h was refused)
      expect(resolveSweep({ workload: 'echo', maxTime: '2h', precision: '3%', out: join(tmp.dir, 'h') }).spec).toMatchObject({ maxTimeMs: 7_200_000 });
    } finally {
      await tmp.remove();
    }
  });
});
