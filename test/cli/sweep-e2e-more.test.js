/**
 * The presets sweep-e2e.test.js does not sweep (and that need no network
 * namespace: server-netns.test.js; nor open loop: sweep-e2e-open.test.js;
 * nor a server not ours: sweep-e2e-servers.test.js, so that they run in
 * workers of their own), each one real `sweep --test` with the tests every
 * preset's sweep must pass. A new preset lands here.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/cli.js';
import { OPEN, OUTSIDE, OWN, PRESETS, describePresetSweeps } from '../helpers/preset-sweeps.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

const MORE = PRESETS.filter((preset) => !(preset in OWN) && !OPEN.includes(preset) && !OUTSIDE.includes(preset));

it('sweeps every preset that sweep-e2e.test.js, sweep-e2e-open.test.js and sweep-e2e-servers.test.js do not (and none twice)', () => {
  expect([...MORE, ...Object.keys(OWN), ...OPEN, ...OUTSIDE].sort()).toEqual([...PRESETS].sort());
  expect(OPEN.length).toBeGreaterThan(0);
  expect(OUTSIDE.length).toBeGreaterThan(0);
  expect(MORE.length).toBeGreaterThan(0);
});

describePresetSweeps(MORE, { dir: () => tmp.dir });
