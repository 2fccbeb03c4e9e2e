/** CSV by the conventions of docs/results.md#the-files: RFC 4180 via csv-stringify, plain numbers, formula-safe text. */
import { stringify } from 'csv-stringify/sync';

/** Significant digits of a non-integer number in CSV: float noise goes, the figure stays. */
const CSV_DIGITS = 9;
/** Plain decimal notation, however large or small: `0.00000069134075`, never `6.9134075e-7`. */
const PLAIN = new Intl.NumberFormat('en-US', { maximumSignificantDigits: CSV_DIGITS, useGrouping: false });

/**
 * A number as a CSV cell: safe integers exactly, others rounded to CSV_DIGITS significant digits, in plain decimal
 * notation (comma-decimal spreadsheets read an exponent as text); non-finite numbers give an empty cell.
 * @param {number} n
 */
export function formatNumber(n) {
  if (!Number.isFinite(n)) return '';
  if (Number.isSafeInteger(n)) return String(n === 0 ? 0 : n);
  // rounded by toExponential, from the exact binary value (Intl would round the shortest decimal: 20.94696405 up)
  return PLAIN.format(Number(n.toExponential(CSV_DIGITS - 1)));
}

/**
 * A cell read back: empty as null, a number written by formatNumber (or any decimal) as a number, else the text.
 * @param {string} text
 */
export function parseCell(text) {
  if (text === '') return null;
  return /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(text) ? Number(text) : text;
}

const options = {
  cast: {
    string: (/** @type {string} */ text) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text), // a formula, neutralised
    number: formatNumber,
    boolean: (/** @type {boolean} */ b) => (b ? 'true' : 'false'),
  },
};

/** @param {readonly string[]} columns */
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
 * @param {Record<string, unknown>[]} rows
 * @param {readonly string[]} columns
 */
export function toCsv(rows, columns) {
  return toCsvHeader(columns) + toCsvRows(rows, columns);
}
