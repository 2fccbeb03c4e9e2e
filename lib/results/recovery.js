/**
 * trials.csv as a stopped sweep may have left it, one row per line: complete rows kept byte for byte, a last row cut
 * short or garbled (a kill, a full disk) cut back, a missing final newline added, damage elsewhere refused naming file
 * and line. Also marks rows superseded when their trials are measured again (--retry-failed), changing nothing else.
 */
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { UsageError } from '../core/errors.js';
import { parseCell, toCsvHeader } from './csv.js';
import { TRANSPORTS } from '../transports/index.js';
import { STATUSES } from './trial-rules.js';

const WHOLE_NUMBER_COLUMNS = ['run', 'order', 'size_bytes', 'depth'];

/**
 * @typedef {object} TrialLine
 * @property {number} line 1-based line number in the file
 * @property {number} start byte offset of the line
 * @property {number} end byte offset after the line (and its newline)
 * @property {string[]} cells
 */

/**
 * @typedef {object} Inspection
 * @property {TrialLine[]} rows complete, valid rows
 * @property {number} keepBytes bytes to keep from the start of the file
 * @property {boolean} needsHeader the file is empty (or holds only part of its header)
 * @property {boolean} addNewline the last row is complete but has no final newline
 * @property {{ line: number, text: string, why: string } | null} cut the last row, removed
 */

/**
 * Why a line is not a trial row, or null when it is one.
 * @param {string} line
 * @param {readonly string[]} columns
 * @returns {{ why: string } | { cells: string[] }}
 */
function readRow(line, columns) {
  let records;
  try {
    records = parse(line, { relax_column_count: true });
  } catch (error) {
    return { why: `not valid CSV (${/** @type {Error} */ (error).message.replace(/ at line \d+/, '')})` };
  }
  if (records.length !== 1) return { why: 'not one CSV row' };
  const cells = /** @type {string[]} */ (records[0]);
  if (cells.length !== columns.length) return { why: `${cells.length} cells where there are ${columns.length} columns` };
  const cell = (/** @type {string} */ name) => cells[columns.indexOf(name)];
  if (columns.includes('status') && !STATUSES.includes(cell('status'))) return { why: `status ${JSON.stringify(cell('status'))} is not one of ${STATUSES.join(', ')}` };
  if (columns.includes('transport') && !TRANSPORTS.includes(/** @type {any} */ (cell('transport')))) return { why: `transport ${JSON.stringify(cell('transport'))} is not one of ${TRANSPORTS.join(', ')}` };
  for (const name of WHOLE_NUMBER_COLUMNS) {
    if (columns.includes(name) && !/^\d+$/.test(cell(name))) return { why: `${name} ${JSON.stringify(cell(name))} is not a whole number` };
  }
  return { cells };
}

/**
 * @param {Buffer} bytes the file's content
 * @param {{ columns: readonly string[], file: string }} options
 * @returns {Inspection}
 */
export function inspectTrialLog(bytes, { columns, file }) {
  const header = toCsvHeader(columns).replace(/\r?\n$/, '');
  /** @type {{ line: number, start: number, end: number, text: string, terminated: boolean }[]} */
  const lines = [];
  for (let start = 0, line = 1; start < bytes.length; line++) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline + 1;
    lines.push({ line, start, end, text: bytes.subarray(start, newline === -1 ? end : newline).toString('utf8').replace(/\r$/, ''), terminated: newline !== -1 });
    start = end;
  }
  /** @type {Inspection} */
  const result = { rows: [], keepBytes: bytes.length, needsHeader: false, addNewline: false, cut: null };
  const first = lines[0];
  if (!first || (!first.terminated && first.text !== header && header.startsWith(first.text))) {
    return { ...result, keepBytes: 0, needsHeader: true, cut: first ? { line: 1, text: first.text, why: 'only part of the header' } : null };
  }
  if (first.text !== header) {
    throw new UsageError(`${file} line 1: the columns are not those of this udsvstcp version (expected ${header}); resume it with the version that wrote it, or start a new sweep`, 'ERR_TRIALS');
  }
  const data = lines.slice(1).filter((l) => l.text.trim() !== '');
  const last = data[data.length - 1];
  for (const entry of data) {
    const row = readRow(entry.text, columns);
    if ('cells' in row) {
      result.rows.push({ line: entry.line, start: entry.start, end: entry.end, cells: row.cells });
    } else if (entry === last) {
      result.cut = { line: entry.line, text: entry.text, why: row.why };
      result.keepBytes = entry.start;
    } else {
      throw new UsageError(`${file} line ${entry.line}: ${row.why}; only a damaged last row can be cut back automatically (repair or delete that line, then --resume again)`, 'ERR_TRIALS');
    }
  }
  if (!result.cut && lines[lines.length - 1].text !== '' && !lines[lines.length - 1].terminated) result.addNewline = true;
  return result;
}

/**
 * A row's cells as values: numbers as numbers, empty cells as null.
 * @param {string[]} cells
 * @param {readonly string[]} columns
 * @returns {Record<string, any>}
 */
export function toRow(cells, columns) {
  return Object.fromEntries(columns.map((name, i) => [name, parseCell(cells[i])]));
}

/**
 * The file with the status of some rows set to `superseded`; every other byte unchanged.
 * @param {Buffer} bytes the file, as inspected (nothing to cut)
 * @param {TrialLine[]} rows the rows to mark
 * @param {readonly string[]} columns
 */
export function markSuperseded(bytes, rows, columns) {
  const status = columns.indexOf('status');
  const parts = [];
  let at = 0;
  for (const row of [...rows].sort((a, b) => a.start - b.start)) {
    parts.push(bytes.subarray(at, row.start));
    const cells = [...row.cells];
    cells[status] = 'superseded';
    parts.push(Buffer.from(stringify([cells])));
    at = row.end;
  }
  parts.push(bytes.subarray(at));
  return Buffer.concat(parts);
}
