/**
 * Read a results directory for a report or comparison: trials.csv, by column name (other versions' files with more or
 * fewer figures still read), meta.json and reference.csv if any. A torn last line (a sweep killed mid-write) is set aside with a note;
 * what cannot be read right (./trial-rules.js), what another user could change (unless allowShared), and a special
 * file, symlink or oversized file are one-line UsageErrors.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { UsageError } from '../core/errors.js';
import { errorCode, readRegularFile } from '../core/files.js';
import { checkPrivate } from '../core/ownership.js';
import { readMetaFile } from './meta.js';
import { checkMetaSpec, createRowReader } from './trial-rules.js';
import { FILES, MAX_READ_BYTES } from './writer.js';

/**
 * @typedef {object} ResultsDir
 * @property {string} dir
 * @property {Record<string, any>[]} trials rows: numbers as numbers, empty cells as null
 * @property {string[]} columns the header of trials.csv
 * @property {Record<string, any> | null} meta
 * @property {string[]} workloads the workloads of the trials (of meta.json's spec when there is none)
 * @property {Record<string, string>[]} reference reference.csv's rows (a workload's reference client: redis-benchmark), cells as text; none without it
 * @property {string[]} notes what was set aside or missing, for the report's warnings
 */

/**
 * Records with the line each starts on (a quoted cell may hold a newline).
 * @param {string} text
 * @returns {{ record: string[], line: number }[]}
 */
function parseRecords(text) {
  const parsed = /** @type {{ record: string[], info: { lines: number } }[]} */ (/** @type {unknown} */ (parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true, info: true })));
  return parsed.map(({ record, info }) => {
    let newlines = 0;
    for (const c of record) for (let i = c.indexOf('\n'); i !== -1; i = c.indexOf('\n', i + 1)) newlines++;
    return { record, line: info.lines - newlines };
  });
}

/**
 * Records of a file a sweep appends to, its last line left out with a note where it is torn: a sweep killed while
 * appending can leave half a line (an open quote) at the end. Throws the first parse's error where the rest is not CSV either.
 * @param {string} text
 * @param {string} file its name, for the note
 * @param {string[]} notes
 */
function parseAppended(text, file, notes) {
  try {
    return parseRecords(text);
  } catch (error) {
    let records;
    try {
      records = parseRecords(text.replace(/\n$/, '').split('\n').slice(0, -1).join('\n'));
    } catch {
      throw error;
    }
    notes.push(tornNote(file));
    return records;
  }
}

/** @param {string} file */
const tornNote = (file) => `the last line of ${file} is incomplete (a sweep stopped while writing it?) and was left out`;

/**
 * @param {string} path
 * @param {string} text
 * @param {string[]} notes
 */
function readTrialsText(path, text, notes) {
  let records;
  try {
    records = parseAppended(text, 'trials.csv', notes);
  } catch (error) {
    throw new UsageError(`${path}: malformed CSV: ${/** @type {Error} */ (error).message}`, 'ERR_RESULTS');
  }
  if (records.length === 0) throw new UsageError(`${path}: empty file, not even a header (is this a udsvstcp results directory?)`, 'ERR_RESULTS');
  const [{ record: columns }, ...body] = records;
  const readRow = createRowReader(path, columns);
  const rows = [];
  for (let i = 0; i < body.length; i++) {
    const { record, line } = body[i];
    if (record.length !== columns.length) {
      if (i === body.length - 1 && record.length < columns.length) {
        notes.push(`the last line of trials.csv is incomplete (${record.length} of ${columns.length} cells: a sweep stopped while writing it?) and was left out`);
        break;
      }
      throw new UsageError(`${path}: malformed CSV: line ${line} has ${record.length} cells, the header ${columns.length}`, 'ERR_RESULTS');
    }
    rows.push(readRow(record, line));
  }
  return { columns, rows };
}

/**
 * @param {string} dir
 * @param {{ allowShared?: boolean }} [options] allowShared: read a directory and files other users could change (--allow-shared-dir)
 * @returns {ResultsDir}
 */
export function readResultsDir(dir, { allowShared = false } = {}) {
  let stat;
  try {
    stat = statSync(dir);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') throw new UsageError(`${dir}: no such directory`, 'ERR_RESULTS');
    throw new UsageError(`${dir}: cannot read: ${/** @type {Error} */ (error).message}`, 'ERR_RESULTS');
  }
  if (!stat.isDirectory()) throw new UsageError(`${dir}: not a directory (give the results directory of a sweep)`, 'ERR_RESULTS');
  if (!allowShared) checkPrivate(dir, stat);
  const trialsPath = join(dir, 'trials.csv');
  /** @type {string[]} */
  const notes = [];
  let text;
  try {
    text = readRegularFile(trialsPath, { maxBytes: MAX_READ_BYTES.trials, what: 'a trials file', private: !allowShared }).toString('utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (errorCode(error) === 'ENOENT') throw new UsageError(`${trialsPath}: not found (is ${dir} the results directory of a sweep?)`, 'ERR_RESULTS');
    throw new UsageError(`${trialsPath}: cannot read: ${/** @type {Error} */ (error).message}`, 'ERR_RESULTS');
  }
  const { columns, rows } = readTrialsText(trialsPath, text, notes);

  const metaPath = join(dir, 'meta.json');
  /** @type {any} undefined: there is none */
  let meta;
  try {
    meta = readMetaFile(metaPath, { private: !allowShared });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (errorCode(error) !== 'ENOENT') {
      const { message } = /** @type {Error} */ (error);
      throw new UsageError(`${metaPath}: ${error instanceof SyntaxError ? `not valid JSON: ${message}` : error instanceof RangeError ? message : `cannot read: ${message}`}`, 'ERR_RESULTS');
    }
    notes.push('no meta.json: the spec and environment of this sweep are unknown');
  }
  if (meta !== undefined) {
    if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) throw new UsageError(`${metaPath}: not a udsvstcp meta.json (expected an object)`, 'ERR_RESULTS');
    checkMetaSpec(metaPath, meta);
  }
  // the workloads of its trials, in order of first appearance, or of its spec
  const workloads = [...new Set(rows.map((r) => String(r.workload)))];
  if (workloads.length === 0 && typeof meta?.spec?.workload === 'string') workloads.push(meta.spec.workload);
  return { dir, trials: rows, columns, meta: meta ?? null, workloads, reference: readReference(join(dir, FILES.reference), allowShared, notes), notes };
}

/**
 * reference.csv's rows by column name, or none where there is no such file. What cannot be read of it is said in a
 * note, not refused: trials.csv's figures are the report; a torn last line (a sweep killed while appending) is left out.
 * @param {string} path
 * @param {boolean} allowShared
 * @param {string[]} notes
 * @returns {Record<string, string>[]}
 */
function readReference(path, allowShared, notes) {
  let text;
  try {
    text = readRegularFile(path, { maxBytes: MAX_READ_BYTES.trials, what: 'a reference file', private: !allowShared }).toString('utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    if (error instanceof UsageError) throw error; // a symlink, special file or another user's: refused as trials.csv would be
    notes.push(`${FILES.reference} could not be read (${/** @type {Error} */ (error).message}): the reference client's figures are left out`);
    return [];
  }
  let records;
  try {
    records = parseAppended(text, FILES.reference, notes);
  } catch (error) {
    notes.push(`${FILES.reference} is not valid CSV (${/** @type {Error} */ (error).message}): the reference client's figures are left out`);
    return [];
  }
  const [{ record: columns } = { record: [] }, ...body] = records;
  const whole = body.filter(({ record }) => record.length === columns.length);
  if (whole.length < body.length) notes.push(whole.length === body.length - 1 && body[body.length - 1].record.length < columns.length ? tornNote(FILES.reference) : `${FILES.reference}: ${body.length - whole.length} line(s) with more or fewer cells than its header were left out`);
  return whole.map(({ record }) => Object.fromEntries(columns.map((name, k) => [name, record[k]])));
}
