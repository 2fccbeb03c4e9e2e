/** The results directory: trials.csv appended and flushed per trial, the rest rewritten whole (atomically), all through lib/core/files.js. */
import fs from 'node:fs';
import { join } from 'node:path';
import { recordFields } from '../trial/record.js';
import { DEFAULT_WORKLOAD, getWorkload } from '../workloads/index.js';
import { toCsvHeader, toCsvRows } from './csv.js';
import { openForAppend, writeAll, writeNewFile } from '../core/files.js';
import { MiB } from '../core/units.js';

export const FILES = { trials: 'trials.csv', blocks: 'blocks.csv', summary: 'summary.csv', wide: 'runs-wide.csv', meta: 'meta.json', fixture: 'fixture.json', reference: 'reference.csv' };

/** reference.csv (docs/results.md#the-files): a workload's reference client's rows (Workload.reference). */
const REFERENCE_COLUMNS = ['run', 'node_version', 'client', 'transport', 'size_bytes', 'depth', 'test', 'requests', 'rps', 'avg_latency_us', 'p50_latency_us', 'p99_latency_us', 'status', 'error'];

/**
 * Append rows to reference.csv, made with its header at the first; flushed before the call returns.
 * @param {string} dir
 * @param {Record<string, unknown>[]} rows
 */
export function appendReference(dir, rows) {
  const path = join(dir, FILES.reference);
  if (!fs.existsSync(path)) writeNewFile(path, toCsvHeader(REFERENCE_COLUMNS));
  const fd = openForAppend(path);
  try {
    writeAll(fd, toCsvRows(rows, REFERENCE_COLUMNS), path);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
/**
 * Largest trials.csv and blocks.csv read. trials.csv is parsed as one string (V8's longest: just under 512 MiB), and
 * 256 MiB is about a million rows; blocks.csv is read only on --resume, as bytes: 1 GiB is some ten million blocks.
 */
export const MAX_READ_BYTES = { trials: 256 * MiB, blocks: 1024 * MiB };
/**
 * trials.csv: run and order, then the workload's record columns.
 * @param {string} workload
 */
export const trialColumns = (workload) => ['run', 'order', ...recordFields(workload)];

/**
 * blocks.csv: one row per measured block (run, Node version, group, transport), with the workload's block figures.
 * @param {string} workload
 */
export const blockColumns = (workload) => ['run', 'node_version', 'size_bytes', 'depth', 'transport', 'block', ...getWorkload(workload).blockColumns];

/**
 * ./udsvstcp-results/<UTC timestamp>-<preset>
 * @param {string} preset
 */
export function defaultOutDir(preset) {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return join('udsvstcp-results', `${stamp}-${preset}`);
}

const COLUMNS = { trials: trialColumns, blocks: blockColumns };

/**
 * A new trials.csv or blocks.csv holding its header; fails if anything (a symlink too) is at its path.
 * @param {string} dir @param {'trials' | 'blocks'} file @param {string} [workload]
 */
export const createLog = (dir, file, workload = DEFAULT_WORKLOAD) => writeNewFile(join(dir, FILES[file]), toCsvHeader(COLUMNS[file](workload)));

/**
 * trials.csv or blocks.csv opened to append; what is appended is flushed to disk before the call
 * returns. Rows that cannot be written whole are cut back out, so the file always ends with a complete row.
 * @param {string} dir @param {'trials' | 'blocks'} file @param {string} [workload]
 */
export function openLog(dir, file, workload = DEFAULT_WORKLOAD) {
  const path = join(dir, FILES[file]);
  const columns = COLUMNS[file](workload);
  const fd = openForAppend(path);
  return {
    path,
    /** @param {Record<string, unknown>[]} rows written together, in one write */
    appendAll(rows) {
      if (rows.length === 0) return;
      const before = fs.fstatSync(fd).size;
      try {
        writeAll(fd, toCsvRows(rows, columns), path);
        fs.fsyncSync(fd);
      } catch (error) {
        try {
          fs.ftruncateSync(fd, before);
        } catch {
          // the next --resume cuts a partial last row back
        }
        const err = /** @type {Error} */ (error);
        err.message += ' (the rows just measured were not kept; --resume measures their trial again)';
        throw err;
      }
    },
    close: () => fs.closeSync(fd),
  };
}

