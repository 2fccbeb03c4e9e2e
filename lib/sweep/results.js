/**
 * The results directory: trials.csv appended and flushed per trial,
 * summary.csv, runs-wide.csv and meta.json rewritten whole (atomically).
 */
import { accessSync, constants, existsSync, fsyncSync, mkdirSync, openSync, closeSync, readFileSync, renameSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { UsageError } from '../errors.js';
import { RECORD_FIELDS } from '../record.js';
import { toCsvHeader, toCsvRows } from '../report/csv.js';

export const TRIAL_COLUMNS = ['run', 'order', ...RECORD_FIELDS];
export const FILES = { trials: 'trials.csv', blocks: 'blocks.csv', summary: 'summary.csv', wide: 'runs-wide.csv', meta: 'meta.json' };
/** blocks.csv: one row per measured block of a paired trial. */
export const BLOCK_COLUMNS = ['run', 'size_bytes', 'depth', 'transport', 'block', 'packets', 'elapsed_ms', 'msgs_per_s', 'client_cpu_us_per_msg', 'server_cpu_us_per_msg', 'client_elu', 'server_elu'];

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
 * Make sure `dir` can take results: new (or empty of results) unless resuming.
 * @param {string} dir
 * @param {{ resume: boolean, flag: string }} options
 */
export function prepareOutDir(dir, { resume, flag }) {
  if (resume) {
    if (!existsSync(join(dir, FILES.meta)) || !existsSync(join(dir, FILES.trials))) {
      throw new UsageError(`--resume ${dir} holds no sweep results (${FILES.meta} and ${FILES.trials} are needed)`);
    }
  } else if (existsSync(join(dir, FILES.trials)) || existsSync(join(dir, FILES.meta))) {
    throw new UsageError(`${flag} ${dir} already holds results; use --resume ${dir} to complete them, or another --out`);
  }
  try {
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw new Error('not a directory');
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new UsageError(`${flag} ${dir} is not a writable directory: ${/** @type {Error} */ (error).message}`);
  }
}

/**
 * @param {string} path
 * @param {string} text
 */
export function writeFileAtomic(path, text) {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

/**
 * Append-only CSV log; what is appended is flushed to disk before the call returns.
 * @param {string} path
 * @param {readonly string[]} columns
 */
function openCsvLog(path, columns) {
  const fd = openSync(path, 'a');
  if (statSync(path).size === 0) writeSync(fd, toCsvHeader(columns));
  /** @param {Record<string, unknown>[]} rows */
  const appendAll = (rows) => {
    if (rows.length === 0) return;
    writeSync(fd, toCsvRows(rows, columns));
    fsyncSync(fd);
  };
  return {
    path,
    appendAll,
    /** @param {Record<string, unknown>} row */
    append: (row) => appendAll([row]),
    close: () => closeSync(fd),
  };
}

/**
 * Append-only trial log; every row is flushed to disk before the next trial.
 * @param {string} dir
 */
export function openTrialLog(dir) {
  return openCsvLog(join(dir, FILES.trials), TRIAL_COLUMNS);
}

/**
 * Append-only block log, flushed after each trial's blocks.
 * @param {string} dir
 */
export function openBlockLog(dir) {
  return openCsvLog(join(dir, FILES.blocks), BLOCK_COLUMNS);
}

/**
 * Read trials.csv back: numbers as numbers, empty cells as null.
 * @param {string} dir
 * @returns {Record<string, any>[]}
 */
export function readTrials(dir) {
  const text = readFileSync(join(dir, FILES.trials), 'utf8');
  /** @type {Record<string, any>[]} */
  const rows = parse(text, {
    columns: true,
    skip_empty_lines: true,
    cast: (value, context) => {
      if (context.header) return value;
      if (value === '') return null;
      return /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(value) ? Number(value) : value;
    },
  });
  const header = text.split(/\r?\n/, 1)[0];
  if (header !== toCsvHeader(TRIAL_COLUMNS).trimEnd()) throw new UsageError(`${join(dir, FILES.trials)} does not have the columns of this udsvstcp version`);
  return rows;
}

/** @param {string} dir */
export function readMeta(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, FILES.meta), 'utf8'));
  } catch (error) {
    throw new UsageError(`--resume ${dir}: cannot read ${FILES.meta}: ${/** @type {Error} */ (error).message}`);
  }
}
