/**
 * results.xlsx (docs/results.md#the-report): typed numeric cells in locale-neutral formats, text never a formula and
 * escaped where XML 1.0 cannot hold it. write-excel-file is loaded only when a workbook is made.
 */

/** Number formats by what a column holds (formats are locale-neutral codes). */
const FORMATS = { integer: '0', rate: '#,##0', micro: '0.00', milli: '0.000', fraction: '0.000', ratio: '0.000', percent: '0.0', df: '0.0' };

/**
 * The number format of a trials column, from its name (names carry the unit).
 * @param {string} column
 */
function trialFormat(column) {
  if (['run', 'order', 'size_bytes', 'depth', 'blocks', 'packets', 'chunks', 'bytes', 'connections', 'requests', 'ops', 'verified_replies', 'queries'].includes(column) || column.startsWith('block_')) return FORMATS.integer;
  if (['msgs_per_s', 'conns_per_s', 'req_per_s', 'ops_per_s', 'queries_per_s'].includes(column)) return FORMATS.rate;
  if (column === 'gb_per_s' || column.endsWith('_ms')) return FORMATS.milli;
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
  if (column === 'ci95_half_width_pct') return FORMATS.percent;
  if (column === 'ci95_df') return FORMATS.df; // moderated: fractional
  if (unit === 'ratio') return FORMATS.ratio;
  if (['msgs/s', 'conns/s', 'req/s'].includes(unit)) return FORMATS.rate;
  if (unit === 'GB/s') return FORMATS.milli;
  return FORMATS.micro;
}

/**
 * What XML 1.0 cannot hold (C0 controls but tab, LF and CR; lone surrogates; U+FFFE, U+FFFF and the other
 * noncharacters), and what the writer would silently drop besides (C1 controls and U+FFFD).
 */
const UNWRITABLE = /(?![\t\n\r])[\p{Cc}\p{Cs}\p{Noncharacter_Code_Point}\uFFFD]/gu;

/**
 * Text as a workbook can hold it (the header's \uXXXX escape; \u{XXXXX} beyond the BMP).
 * @param {string} text
 */
export function xmlSafeText(text) {
  return text.replace(UNWRITABLE, (c) => {
    const code = /** @type {number} */ (c.codePointAt(0)).toString(16).toUpperCase();
    return code.length > 4 ? `\\u{${code}}` : `\\u${code.padStart(4, '0')}`;
  });
}

/**
 * One sheet: a bold frozen header row, then a row per record.
 * @param {string} name
 * @param {string[]} columns
 * @param {Record<string, unknown>[]} rows
 * @param {(column: string, row: Record<string, unknown>) => string | undefined} format
 * @param {number[]} [widths] by column, where the default (header length) is not right
 * @returns {import('write-excel-file/node').Sheet<any>}
 */
function sheetOf(name, columns, rows, format, widths = []) {
  return {
    sheet: name,
    stickyRowsCount: 1,
    columns: columns.map((c, k) => ({ width: widths[k] ?? Math.min(40, Math.max(8, c.length + 2)) })),
    data: [
      columns.map((c) => ({ value: xmlSafeText(c), type: String, fontWeight: 'bold' })),
      // a finite number in its format, any other figure empty, text as text (never a formula unless told), empty text empty
      ...rows.map((row) => columns.map((c) => {
        const v = row[c];
        if (typeof v !== 'number') return v === null || v === undefined || v === '' ? null : { value: xmlSafeText(String(v)), type: String };
        const f = format(c, row);
        return Number.isFinite(v) ? { value: v, type: Number, ...(f ? { format: f } : {}) } : null;
      })),
    ],
  };
}

/**
 * @param {object} input
 * @param {Record<string, any>[]} input.trials trial rows
 * @param {string[]} input.trialColumns columns of trials.csv, in order
 * @param {Record<string, any>[]} input.summary rows of summarize()
 * @param {readonly string[]} input.summaryColumns
 * @param {{ columns: string[], rows: Record<string, any>[] }} input.wide the 2014 layout (toRunsWide)
 * @param {[string, string | number | null][]} input.about key/value rows for the "report" sheet
 * @returns {Promise<Buffer>}
 */
export async function toXlsx({ trials, trialColumns, summary, summaryColumns, wide, about }) {
  const { default: writeXlsxFile } = await import('write-excel-file/node');
  const sheets = [
    sheetOf('trials', trialColumns, trials, trialFormat),
    sheetOf('summary', [...summaryColumns], summary, (c, row) => summaryFormat(c, String(row.unit))),
    sheetOf('runs-wide', wide.columns, wide.rows, (c) => (c === wide.columns[0] ? undefined : '#,##0.0'), [Math.max(wide.columns[0].length, 24)]),
    sheetOf('report', ['item', 'value'], about.map(([item, value]) => ({ item, value })), () => undefined, [24, 120]),
  ];
  return writeXlsxFile(sheets).toBuffer();
}
