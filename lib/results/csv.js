/**
 * CSV: RFC 4180 via csv-stringify, plain numbers with a dot (at most 9
 * significant digits, never exponent notation), empty cells for null, and
 * text cells that a spreadsheet would run as a formula neutralised with a
 * leading apostrophe.
 */
import { stringify } from 'csv-stringify/sync';

/** @param {string} text */
function neutralise(text) {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** Significant digits of a non-integer number in CSV: float noise goes, the figure stays. */
const CSV_DIGITS = 9;

/**
 * A number as a CSV cell: safe integers exactly, other numbers rounded to
 * CSV_DIGITS significant digits, always in plain decimal notation (`0.00000069134075`,
 * never `6.9134075e-7`, which comma-decimal spreadsheets read as text).
 * Non-finite numbers give an empty cell.
 * @param {number} n
 */
export function formatNumber(n) {
  if (!Number.isFinite(n)) return '';
  if (Number.isSafeInteger(n)) return String(n === 0 ? 0 : n);
  const [mantissa, exponent] = n.toExponential(CSV_DIGITS - 1).split('e');
  const sign = mantissa.startsWith('-') ? '-' : '';
  const digits = mantissa.replace(/^-/, '').replace('.', '');
  const e = Number(exponent);
  let whole;
  let fraction;
  if (e < 0) {
    whole = '0';
    fraction = '0'.repeat(-e - 1) + digits;
  } else if (e + 1 >= digits.length) {
    whole = digits + '0'.repeat(e + 1 - digits.length);
    fraction = '';
  } else {
    whole = digits.slice(0, e + 1);
    fraction = digits.slice(e + 1);
  }
  fraction = fraction.replace(/0+$/, '');
  const text = fraction ? `${whole}.${fraction}` : whole;
  return /^0(\.0*)?$/.test(text) ? '0' : sign + text;
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
    string: neutralise,
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
 * A whole CSV document.
 * @param {Record<string, unknown>[]} rows
 * @param {readonly string[]} columns
 */
export function toCsv(rows, columns) {
  return toCsvHeader(columns) + toCsvRows(rows, columns);
}
