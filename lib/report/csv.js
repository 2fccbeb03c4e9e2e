/**
 * CSV: RFC 4180 via csv-stringify, plain numbers with a dot, empty cells for
 * null, and text cells that a spreadsheet would run as a formula neutralised
 * with a leading apostrophe.
 */
import { stringify } from 'csv-stringify/sync';

/** @param {string} text */
export function neutralise(text) {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

const options = {
  cast: {
    string: neutralise,
    number: (/** @type {number} */ n) => (Number.isFinite(n) ? String(n) : ''),
    boolean: (/** @type {boolean} */ b) => (b ? 'true' : 'false'),
  },
};

/**
 * @param {readonly string[]} columns
 */
export function toCsvHeader(columns) {
  return stringify([columns.map(String)], options);
}

/**
 * Rows (objects) as CSV lines in the order of `columns`, without header.
 * @param {Record<string, unknown>[]} rows
 * @param {readonly string[]} columns
 */
export function toCsvRows(rows, columns) {
  return stringify(rows.map((row) => columns.map((c) => row[c] ?? null)), options);
}

/**
 * A whole CSV document.
 * @param {Record<string, unknown>[]} rows
 * @param {readonly string[]} columns
 */
export function toCsv(rows, columns) {
  return toCsvHeader(columns) + toCsvRows(rows, columns);
}
