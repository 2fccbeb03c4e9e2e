import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecord } from '../../lib/trial/record.js';
import { layer } from '../../lib/core/files.js';
import { acquireLock } from '../../lib/results/lock.js';
import { createLog, openLog, trialColumns } from '../../lib/results/writer.js';
import { callMain, makeTempDir } from '../helpers/cli.js';
import { callMainLeavingNothing } from '../helpers/in-process.js';
import { keyOf, readMetaJson, readTrialRows, startSweep, writeTinySpec } from '../helpers/sweeps.js';

/** trials.csv's columns of an echo sweep */
const TRIAL_COLUMNS = trialColumns('echo');

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
const realWrite = layer.writeSync;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(async () => {
  layer.writeSync = realWrite;
  await tmp.remove();
});

/**
 * Take every free page of the file system that holds `path`: a file written a page at a time until ENOSPC.
 * @param {string} path
 * @returns {boolean} whether the file system is full
 */
function fillUp(path) {
  const fd = fs.openSync(path, 'w');
  try {
    for (let page = 0; page < 64; page++) fs.writeSync(fd, Buffer.alloc(4096)); // a 128 KiB tmpfs holds 32
    return false;
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ENOSPC') throw error;
    return true;
  } finally {
    fs.closeSync(fd);
  }
}

const row = (/** @type {number} */ run) => ({ run, order: 0, ...createRecord({ workload: 'echo', transport: 'tcp', size_bytes: 64, depth: 1, packets: 100, msgs_per_s: 12345.5 }) });

describe('a full disk loses nothing already recorded', () => {
  it('a lock that cannot be written leaves no temporary file behind (injected ENOSPC)', () => {
    layer.writeSync = () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    expect(() => acquireLock(tmp.dir, { flag: '--out' })).toThrow(/cannot write .*sweep\.lock\..*no space left/);
    layer.writeSync = realWrite;
    expect(fs.readdirSync(tmp.dir)).toEqual([]);
    acquireLock(tmp.dir, { flag: '--out' }).release();
    expect(fs.readdirSync(tmp.dir)).toEqual([]);
  });

  it('short writes are continued, and a row that cannot be written whole is cut back out (injected short writes)', async () => {
    createLog(tmp.dir, 'trials');
    const log = openLog(tmp.dir, 'trials');
    layer.writeSync = (fd, buffer, offset, length) => realWrite(fd, /** @type {Buffer} */ (buffer), offset, Math.min(/** @type {number} */ (length), 7));
    log.appendAll([row(0)]); // written 7 bytes at a time, whole
    const good = await readFile(log.path, 'utf8');
    let budget = 20; // then the disk is full
    layer.writeSync = (fd, buffer, offset, length) => {
      if (budget <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      const n = realWrite(fd, /** @type {Buffer} */ (buffer), offset, Math.min(/** @type {number} */ (length), budget));
      budget -= n;
      return n;
    };
    expect(() => log.appendAll([row(1)])).toThrow(`cannot write ${log.path}: ENOSPC: no space left on device, write (the rows just measured were not kept; --resume measures their trial again)`);
    log.close();
    expect(await readFile(log.path, 'utf8')).toBe(good);
    expect(parse(good, { columns: true })).toEqual([expect.objectContaining({ run: '0', msgs_per_s: '12345.5' })]);
  });

  // The real thing needs root to mount a tmpfs (CI runs as root); the test above covers the logic everywhere.
  it.skipIf(process.getuid?.() !== 0)('on a real 128 KiB tmpfs: exit 1 naming the file, meta.json failed with the reason, and --resume completes after space is freed', async () => {
    const mount = join(tmp.dir, 'small');
    await mkdir(mount);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=128k', 'tmpfs', mount]);
    try {
      // Once the first trial is recorded, every free page is taken: trials.csv then fills the page it has
      // (a trial of three transports adds about 700 bytes) and the row that needs a second page cannot be
      // written, at the 5th to 7th of 8 trials. (A filler written first would depend on meta.json's size.)
      const out = join(mount, 'res');
      const spec = await writeTinySpec(tmp.dir, { sizes: '1..128', runs: 1, transports: ['tcp', 'uds', 'uds-abstract'] });
      let filled = false;
      const full = await startSweep([spec, '--test', '--no-probe', '--no-report', '--out', out], {
        onStderr: (text) => { if (!filled && text.includes('[1/8]')) filled = fillUp(join(mount, 'filler')); },
      }).done;
      expect(filled).toBe(true);
      expect(full.code, full.stderr).toBe(1);
      expect(full.stderr).toMatch(new RegExp(`udsvstcp: error: cannot write ${out}/\\S+: ENOSPC`));
      expect(full.stderr).toContain(`after fixing the cause, continue with:\n  npx udsvstcp sweep --resume ${out}\n`);
      const meta = await readMetaJson(out);
      expect(meta).toMatchObject({ status: 'failed', error: expect.stringMatching(/ENOSPC/) });
      const kept = parse(await readFile(join(out, 'trials.csv'), 'utf8'));
      for (const cells of kept) expect(cells).toHaveLength(TRIAL_COLUMNS.length);
      const recorded = (full.stderr.match(/^\[\d+\/8\]/gm) ?? []).length;
      expect(kept.length - 1).toBe(3 * recorded); // every row reported recorded is there, whole
      expect(recorded).toBeGreaterThan(1); // trials recorded after the disk was full, in the page trials.csv had
      expect(recorded).toBeLessThan(8); // and the sweep stopped at a row, before its last trial

      const again = await callMain(['sweep', spec, '--out', out]);
      expect(again.code).toBe(2);
      expect(again.stderr).toMatch(/already holds results; use --resume .* \(its sweep is failed: cannot write .*ENOSPC/);

      await rm(join(mount, 'filler'));
      const resumed = await callMainLeavingNothing(['sweep', '--resume', out, '--no-probe', '--no-report']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain('note: the last session failed (cannot write');
      const rows = await readTrialRows(out);
      expect(rows).toHaveLength(24);
      expect(new Set(rows.map(keyOf)).size).toBe(24);
      expect((await readMetaJson(out)).sessions.map((/** @type {any} */ s) => s.status)).toEqual(['failed', 'complete']);
    } finally {
      execFileSync('umount', [mount]);
    }
    expect(fs.readdirSync(tmp.dir).sort()).toEqual(['small', 'tiny.json']);
  }, 120_000); // a sweep of 8 trials and its resume: a test cut short by its timeout would leave the tmpfs mounted
});
