/**
 * Read a results directory for a report or a comparison: trials.csv (read
 * by column name, so files of other udsvstcp versions with more or fewer
 * figures still read) and meta.json when there is one. Works on what a
 * partial, interrupted or killed sweep leaves: a torn last line of
 * trials.csv is set aside with a note. Anything else that is not a
 * udsvstcp results directory is a UsageError naming the file and the problem.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { UsageError } from '../core/errors.js';
import { FIGURES } from '../workloads/figures.js';

/** Columns every trials.csv of udsvstcp has, whatever its version. */
const REQUIRED_COLUMNS = ['run', 'workload', 'transport', 'size_bytes', 'depth', 'status'];
/** Columns that must hold numbers (or be empty, for failed trials' figures). */
const NUMERIC_IDENTITY = ['run', 'size_bytes', 'depth'];

/**
 * @typedef {object} ResultsDir
 * @property {string} dir
 * @property {Record<string, any>[]} trials rows: numbers as numbers, empty cells as null
 * @property {string[]} columns the header of trials.csv
 * @property {Record<string, any> | null} meta
 * @property {string[]} notes what was set aside or missing, for the report's warnings
 */

/** @param {string} text */
function cell(text) {
  if (text === '') return null;
  return /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(text) ? Number(text) : text;
}

/**
 * @param {string} text
 * @returns {string[][]}
 */
function parseRecords(text) {
  return parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true });
}

/**
 * @param {string} path
 * @param {string} text
 * @param {string[]} notes
 */
function readTrialsText(path, text, notes) {
  /** @type {string[][]} */
  let records;
  try {
    records = parseRecords(text);
  } catch (error) {
    // a sweep killed while appending can leave half a line (an open quote) at the end
    const lines = text.replace(/\n$/, '').split('\n');
    try {
      records = parseRecords(lines.slice(0, -1).join('\n'));
    } catch {
      throw new UsageError(`${path}: malformed CSV: ${/** @type {Error} */ (error).message}`, 'ERR_RESULTS');
    }
    notes.push(`the last line of trials.csv is incomplete (a sweep stopped while writing it?) and was left out`);
  }
  if (records.length === 0) throw new UsageError(`${path}: empty file, not even a header (is this a udsvstcp results directory?)`, 'ERR_RESULTS');
  const [columns, ...body] = records;
  const missing = REQUIRED_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length) throw new UsageError(`${path}: not a udsvstcp trials file: no column ${missing.join(', ')} (found ${columns.slice(0, 6).join(', ')}${columns.length > 6 ? ', …' : ''})`, 'ERR_RESULTS');
  const rows = [];
  for (let i = 0; i < body.length; i++) {
    const record = body[i];
    const line = i + 2;
    if (record.length !== columns.length) {
      if (i === body.length - 1 && record.length < columns.length) {
        notes.push(`the last line of trials.csv is incomplete (${record.length} of ${columns.length} cells: a sweep stopped while writing it?) and was left out`);
        break;
      }
      throw new UsageError(`${path}: malformed CSV: line ${line} has ${record.length} cells, the header ${columns.length}`, 'ERR_RESULTS');
    }
    /** @type {Record<string, any>} */
    const row = {};
    columns.forEach((c, k) => { row[c] = cell(record[k]); });
    for (const c of NUMERIC_IDENTITY) {
      if (typeof row[c] !== 'number') throw new UsageError(`${path}: line ${line}: ${c} is ${JSON.stringify(record[columns.indexOf(c)])}, not a number`, 'ERR_RESULTS');
    }
    if (row.status === 'ok') {
      for (const metric of Object.keys(FIGURES)) {
        if (metric in row && row[metric] !== null && typeof row[metric] !== 'number') throw new UsageError(`${path}: line ${line}: ${metric} is ${JSON.stringify(row[metric])}, not a number`, 'ERR_RESULTS');
      }
    }
    rows.push(row);
  }
  return { columns, rows };
}

/**
 * @param {string} dir
 * @returns {ResultsDir}
 */
export function readResultsDir(dir) {
  if (!existsSync(dir)) throw new UsageError(`${dir}: no such directory`, 'ERR_RESULTS');
  if (!statSync(dir).isDirectory()) throw new UsageError(`${dir}: not a directory (give the results directory of a sweep)`, 'ERR_RESULTS');
  const trialsPath = join(dir, 'trials.csv');
  if (!existsSync(trialsPath)) throw new UsageError(`${trialsPath}: not found (is ${dir} the results directory of a sweep?)`, 'ERR_RESULTS');
  /** @type {string[]} */
  const notes = [];
  let text;
  try {
    text = readFileSync(trialsPath, 'utf8');
  } catch (error) {
    throw new UsageError(`${trialsPath}: cannot read: ${/** @type {Error} */ (error).message}`, 'ERR_RESULTS');
  }
  const { columns, rows } = readTrialsText(trialsPath, text, notes);

  const metaPath = join(dir, 'meta.json');
  let meta = null;
  if (existsSync(metaPath)) {
    try {
      meta = JSON.parse(readFileSync(metaPath, 'utf8'));
    } catch (error) {
      throw new UsageError(`${metaPath}: not valid JSON: ${/** @type {Error} */ (error).message}`, 'ERR_RESULTS');
    }
    if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) throw new UsageError(`${metaPath}: not a udsvstcp meta.json (expected an object)`, 'ERR_RESULTS');
  } else {
    notes.push('no meta.json: the spec and environment of this sweep are unknown');
  }
  return { dir, trials: rows, columns, meta, notes };
}
