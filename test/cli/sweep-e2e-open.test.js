/**
 * The open-loop presets (latency-under-load), each one real `sweep --test`
 * with the tests every preset's sweep must pass (test/helpers/preset-sweeps.js),
 * in a file of their own so they run beside sweep-e2e-more.test.js.
 */
import { afterAll, beforeAll } from 'vitest';
import { makeTempDir } from '../helpers/cli.js';
import { OPEN, describePresetSweeps } from '../helpers/preset-sweeps.js';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

describePresetSweeps(OPEN, { dir: () => tmp.dir });
