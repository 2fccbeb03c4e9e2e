import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSysctl, readSysctls } from '../../lib/core/machine.js';
import { makeTempDir } from '../helpers/cli.js';

const KEYS = JSON.parse(readFileSync(new URL('../fixtures/machine-keys.json', import.meta.url), 'utf8'));

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

describe('the sysctls recorded', () => {
  it('reads numbers, lists of numbers and text as the kernel prints them', () => {
    expect(parseSysctl('212992')).toBe(212992);
    expect(parseSysctl('4096\t16384\t4194304')).toEqual([4096, 16384, 4194304]);
    expect(parseSysctl('cubic reno')).toBe('cubic reno');
    expect(parseSysctl(null)).toBeNull();
  });

  it.runIf(process.platform === 'linux')('reads every key of the fixture from a /proc/sys tree, null where a file is missing', async () => {
    const root = join(tmp.dir, 'sys');
    await mkdir(join(root, 'net', 'core'), { recursive: true });
    await mkdir(join(root, 'net', 'ipv4'), { recursive: true });
    await writeFile(join(root, 'net', 'core', 'wmem_default'), '4194304\n');
    await writeFile(join(root, 'net', 'ipv4', 'tcp_wmem'), '4096\t16384\t4194304\n');
    const { sysctl } = readSysctls(root);
    expect(Object.keys(sysctl ?? {}).sort()).toEqual(KEYS.sysctl);
    expect(sysctl).toMatchObject({ 'net.core.wmem_default': 4194304, 'net.ipv4.tcp_wmem': [4096, 16384, 4194304], 'net.core.rmem_default': null, 'net.unix.max_dgram_qlen': null });
  });
});
