/**
 * The results directory: trials.csv appended and flushed per trial,
 * summary.csv, runs-wide.csv and meta.json rewritten whole (atomically).
 * Files are opened through ./files.js: never through a symlink, new ones
 * exclusively, every write checked.
 */
import fs from 'node:fs';
import { join } from 'node:path';
import { RECORD_FIELDS } from '../record.js';
import { toCsvHeader, toCsvRows } from '../report/csv.js';
import { createExclusive, openForAppend, readNoFollow, writeAll } from './files.js';
import { inspectTrialLog, toRow } from './recovery.js';

export { writeFileAtomic } from './files.js';

export const TRIAL_COLUMNS = ['run', 'order', ...RECORD_FIELDS];
export const FILES = { trials: 'trials.csv', summary: 'summary.csv', wide: 'runs-wide.csv', meta: 'meta.json' };

/**
 * ./udsvstcp-results/<UTC timestamp>-<preset>
 * @param {string} preset
 * @param {Date} [now]
 */
export function defaultOutDir(preset, now = new Date()) {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return join('udsvstcp-results', `${stamp}-${preset}`);
}

/**
 * A new CSV file holding its header; fails if anything (a symlink too) is at its path.
 * @param {string} path
 * @param {readonly string[]} columns
 */
export function createCsvLog(path, columns) {
  const fd = createExclusive(path);
  try {
    writeAll(fd, toCsvHeader(columns), path);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * An append-only CSV file; every row is flushed to disk before append() returns.
 * A row that cannot be written whole is cut back out, so the file always
 * ends with a complete row.
 * @param {string} path
 * @param {readonly string[]} columns
 */
export function openCsvLog(path, columns) {
  const fd = openForAppend(path);
  return {
    path,
    /** @param {Record<string, unknown>} row */
    append(row) {
      const before = fs.fstatSync(fd).size;
      try {
        writeAll(fd, toCsvRows([row], columns), path);
        fs.fsyncSync(fd);
      } catch (error) {
        try {
          fs.ftruncateSync(fd, before);
        } catch {
          // the next --resume cuts a partial last row back
        }
        const err = /** @type {Error} */ (error);
        err.message += ' (the row just measured was not kept; --resume measures its trial again)';
        throw err;
      }
    },
    close: () => fs.closeSync(fd),
  };
}

/** @param {string} dir */
export const createTrialLog = (dir) => createCsvLog(join(dir, FILES.trials), TRIAL_COLUMNS);

/** @param {string} dir */
export const openTrialLog = (dir) => openCsvLog(join(dir, FILES.trials), TRIAL_COLUMNS);

/**
 * Read trials.csv back: numbers as numbers, empty cells as null. A damaged
 * last row is left out (a resume cuts it from the file; see recovery.js).
 * @param {string} dir
 * @returns {Record<string, any>[]}
 */
export function readTrials(dir) {
  const path = join(dir, FILES.trials);
  return inspectTrialLog(readNoFollow(path), { columns: TRIAL_COLUMNS, file: path }).rows.map((r) => toRow(r.cells, TRIAL_COLUMNS));
}
