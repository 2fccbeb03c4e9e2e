/**
 * results.xlsx: the trials, the summary and the 2014 wide layout as an
 * Excel workbook, written by ExcelJS. Every figure is a typed numeric cell
 * (a spreadsheet never has to guess a decimal separator, so it opens right
 * in every locale), units are in the header names, the header row is
 * frozen, and number formats only change how cells look, never what they
 * hold. A fourth sheet, "report", holds the verdicts, warnings and the
 * environment. The workbook is written by ExcelJS's streaming writer, row
 * by row, so memory stays flat in the trial rows. toXlsx returns the bytes;
 * nothing here touches the disk.
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';

/** Number formats by what a column holds (formats are locale-neutral codes). */
const FORMATS = { integer: '0', rate: '#,##0', micro: '0.00', milli: '0.000', fraction: '0.000', ratio: '0.000', percent: '0.0', df: '0.0' };

/**
 * The number format of a trials column, from its name (names carry the unit).
 * @param {string} column
 */
function trialFormat(column) {
  // counts of every workload: packets, chunks, bytes, connections, requests, and their blocks
  if (['run', 'order', 'size_bytes', 'depth', 'blocks', 'packets', 'chunks', 'bytes', 'connections', 'requests'].includes(column) || column.startsWith('block_')) return FORMATS.integer;
  if (['msgs_per_s', 'conns_per_s', 'req_per_s'].includes(column)) return FORMATS.rate;
  if (column === 'gb_per_s') return FORMATS.milli;
  if (column.endsWith('_ms')) return FORMATS.milli;
  if (column.endsWith('_elu')) return FORMATS.fraction;
  return FORMATS.micro;
}

/**
 * The number format of a summary cell, from its column and its row's unit.
 * @param {string} column
 * @param {string} unit
 */
function summaryFormat(column, unit) {
  if (column === 'n' || column === 'outliers' || column === 'size_bytes' || column === 'depth') return FORMATS.integer;
  if (column === 'cv') return '0.0%';
  if (column === 'cv_pct' || column === 'ci95_half_width_pct') return FORMATS.percent;
  if (column === 'ci95_df') return FORMATS.df; // moderated: fractional
  if (unit === 'ratio') return FORMATS.ratio;
  if (['msgs/s', 'conns/s', 'req/s'].includes(unit)) return FORMATS.rate;
  if (unit === 'GB/s') return FORMATS.milli;
  return FORMATS.micro;
}

/** @param {unknown} v */
const cellValue = (v) => (typeof v === 'number' ? (Number.isFinite(v) ? v : null) : v ?? null);

/** @type {Map<string, Partial<ExcelJS.Style>>} */
const styles = new Map();

/**
 * One style object per number format, shared by every cell that has it:
 * ExcelJS looks a style up by its object, so a shared one is resolved once,
 * not once per cell. Nothing changes a cell's style after it is set.
 * @param {string} numFmt
 */
function styleOf(numFmt) {
  let style = styles.get(numFmt);
  if (!style) styles.set(numFmt, style = Object.freeze({ numFmt }));
  return style;
}

/**
 * A sheet written row by row: each row is committed (serialised into the
 * zip stream) as soon as it is made, so memory does not grow with the rows.
 * @param {ExcelJS.stream.xlsx.WorkbookWriter} workbook
 * @param {string} name
 * @param {readonly string[]} columns
 * @param {Iterable<Record<string, unknown>>} rows
 * @param {(column: string, row: Record<string, unknown>) => string | undefined} format
 * @param {Record<number, number>} [widths] column widths by 1-based column, over the default
 */
function addSheet(workbook, name, columns, rows, format, widths = {}) {
  const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1, xSplit: 0 }] });
  sheet.columns = columns.map((c, k) => ({ header: c, key: c, width: widths[k + 1] ?? Math.min(40, Math.max(8, c.length + 2)) }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.commit();
  let i = 0;
  for (const row of rows) {
    const excelRow = sheet.getRow(i + 2);
    columns.forEach((c, k) => {
      const value = cellValue(row[c]);
      if (value === null) return; // an empty cell is no cell: a sparse sheet (runs-wide) costs what it holds
      const cell = excelRow.getCell(k + 1);
      cell.value = /** @type {ExcelJS.CellValue} */ (value);
      const fmt = typeof value === 'number' ? format(c, row) : undefined;
      if (fmt) cell.style = styleOf(fmt);
    });
    excelRow.commit();
    i++;
  }
  sheet.commit();
}

/**
 * @param {object} input
 * @param {Record<string, any>[]} input.trials trial rows
 * @param {string[]} input.trialColumns columns of trials.csv, in order
 * @param {Record<string, any>[]} input.summary rows of summarize()
 * @param {readonly string[]} input.summaryColumns
 * @param {{ columns: string[], rows: Record<string, any>[] }} input.wide the 2014 layout (toRunsWide)
 * @param {[string, string | number | null][]} [input.about] key/value rows for the "report" sheet
 * @param {Date} [input.created]
 * @returns {Promise<Buffer>}
 */
export async function toXlsx({ trials, trialColumns, summary, summaryColumns, wide, about = [], created }) {
  /** @type {Buffer[]} */
  const chunks = [];
  const stream = new PassThrough();
  stream.on('data', (chunk) => chunks.push(chunk));
  const ended = once(stream, 'end');
  // ExcelJS's streaming writer: rows go out as they are made, compressed by node:zlib
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: true });
  workbook.creator = 'udsvstcp';
  if (created) {
    workbook.created = created;
    workbook.modified = created;
  }
  addSheet(workbook, 'trials', trialColumns, trials, (c) => trialFormat(c));
  addSheet(workbook, 'summary', summaryColumns, summary, (c, row) => summaryFormat(c, String(row.unit ?? (row.transport === 'uds/tcp' ? 'ratio' : ''))));
  addSheet(workbook, 'runs-wide', wide.columns, wide.rows, (c) => (c === wide.columns[0] ? undefined : '#,##0.0'), { 1: Math.max(wide.columns[0].length, 24) });
  addSheet(workbook, 'report', ['item', 'value'], about.map(([item, value]) => ({ item, value })), () => undefined, { 1: 24, 2: 120 });
  await workbook.commit();
  await ended;
  return Buffer.concat(chunks);
}
