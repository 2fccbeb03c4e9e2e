/**
 * Read an .xlsx back as the file says it, not as our writer meant it: unzip
 * it (fflate), check that every XML part is well-formed XML 1.0 (no
 * character XML forbids, literally or as a character reference), and parse
 * the workbook, shared strings, styles and sheets (fast-xml-parser) into
 * cells with their type, number format and boldness.
 */
import { readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import { unzipSync } from 'fflate';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** Excel's built-in number formats that a writer may refer to by id alone. */
const BUILTIN_FORMATS = /** @type {Record<number, string>} */ ({ 0: 'General', 1: '0', 2: '0.00', 3: '#,##0', 4: '#,##0.00', 9: '0%', 10: '0.00%', 11: '0.00E+00', 49: '@' });

/** A character XML 1.0 does not allow anywhere in a document. */
const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/**
 * Throw unless text is a well-formed XML 1.0 document.
 * @param {string} name the part's path in the zip
 * @param {Uint8Array} bytes
 */
function checkPart(name, bytes) {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  const literal = FORBIDDEN.exec(text);
  if (literal) throw new Error(`${name}: character U+${/** @type {number} */ (literal[0].codePointAt(0)).toString(16).toUpperCase().padStart(4, '0')} at offset ${literal.index}, which XML 1.0 forbids`);
  for (const ref of text.matchAll(/&#(x[0-9a-f]+|[0-9]+);/gi)) {
    const code = ref[1][0].toLowerCase() === 'x' ? parseInt(ref[1].slice(1), 16) : Number(ref[1]);
    if (code > 0x10ffff || FORBIDDEN.test(String.fromCodePoint(code))) throw new Error(`${name}: character reference ${ref[0]}, which XML 1.0 forbids`);
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new Error(`${name}: not well-formed: ${valid.err.msg} (line ${valid.err.line})`);
  return text;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  isArray: (name) => ['sheet', 'Relationship', 'si', 'r', 'numFmt', 'font', 'xf', 'col', 'row', 'c'].includes(name),
});

/**
 * The text of a <t> or <si> node, however it is spelled.
 * @param {any} node
 * @returns {string}
 */
function textOf(node) {
  if (node === undefined || node === null) return '';
  if (typeof node === 'string') return node;
  if (node.r) return node.r.map((/** @type {any} */ run) => textOf(run.t)).join('');
  if ('t' in node) return textOf(node.t);
  return String(node['#text'] ?? '');
}

/**
 * Column number (1-based) and row number of an address like "AB12".
 * @param {string} address
 */
function position(address) {
  const [, letters, digits] = /** @type {RegExpExecArray} */ (/^([A-Z]+)(\d+)$/.exec(address));
  return { column: [...letters].reduce((n, l) => n * 26 + l.charCodeAt(0) - 64, 0), row: Number(digits) };
}

/**
 * @typedef {object} XlsxCell
 * @property {string | number | boolean | null} value
 * @property {'n' | 's' | 'str' | 'inlineStr' | 'b' | 'e'} type as the file spells it (t attribute; n when absent)
 * @property {string} numFmt 'General' when none
 * @property {boolean} bold
 * @property {boolean} formula whether the cell holds a formula (<f>)
 */

/**
 * @typedef {object} XlsxSheet
 * @property {string} name
 * @property {number} frozenRows rows above a frozen pane (0 when none)
 * @property {Map<number, number>} widths column number → width, where set
 * @property {number} rowCount the last row number that has a cell
 * @property {(row: number, column: number) => XlsxCell} cell 1-based; an empty cell is { value: null, type: 'n' }
 * @property {(row: number) => (string | number | boolean | null)[]} values the row's values, from column 1 to the last
 */

/**
 * @param {string} file path of an .xlsx file
 * @returns {Promise<{ names: string[], parts: string[], sheet: (name: string) => XlsxSheet }>}
 */
export async function readXlsx(file) {
  const zip = unzipSync(new Uint8Array(await readFile(file)));
  /** @type {Record<string, string>} */
  const parts = {};
  for (const [name, bytes] of Object.entries(zip)) if (/\.(xml|rels)$/.test(name)) parts[name] = checkPart(name, bytes);
  const part = (/** @type {string} */ name) => {
    if (!(name in parts)) throw new Error(`${file}: no part ${name}`);
    return parser.parse(parts[name]);
  };

  const strings = 'xl/sharedStrings.xml' in parts ? (part('xl/sharedStrings.xml').sst.si ?? []).map(textOf) : [];
  const styles = part('xl/styles.xml').styleSheet;
  /** @type {Map<number, string>} */
  const formats = new Map((styles.numFmts?.numFmt ?? []).map((/** @type {any} */ f) => [Number(f.numFmtId), f.formatCode]));
  const bold = (styles.fonts?.font ?? []).map((/** @type {any} */ f) => 'b' in f && f.b?.val !== '0' && f.b?.val !== 'false');
  const xfs = (styles.cellXfs?.xf ?? []).map((/** @type {any} */ xf) => {
    const id = Number(xf.numFmtId ?? 0);
    return { numFmt: formats.get(id) ?? BUILTIN_FORMATS[id] ?? `builtin ${id}`, bold: bold[Number(xf.fontId ?? 0)] ?? false };
  });

  const workbook = part('xl/workbook.xml').workbook;
  const rels = part('xl/_rels/workbook.xml.rels').Relationships.Relationship;
  const sheets = workbook.sheets.sheet.map((/** @type {any} */ s) => {
    const target = rels.find((/** @type {any} */ r) => r.Id === s['r:id']).Target;
    return { name: String(s.name), path: target.startsWith('/') ? target.slice(1) : posix.join('xl', target) };
  });

  return {
    names: sheets.map((/** @type {any} */ s) => s.name),
    parts: Object.keys(parts),
    sheet(name) {
      const found = sheets.find((/** @type {any} */ s) => s.name === name);
      if (!found) throw new Error(`${file}: no sheet ${name}`);
      const ws = part(found.path).worksheet;
      const pane = ws.sheetViews?.sheetView?.pane;
      const frozenRows = pane && (pane.state === 'frozen' || pane.state === 'frozenSplit') ? Number(pane.ySplit ?? 0) : 0;
      /** @type {Map<number, number>} */
      const widths = new Map();
      for (const col of ws.cols?.col ?? []) for (let k = Number(col.min); k <= Number(col.max); k++) widths.set(k, Number(col.width));
      /** @type {Map<string, XlsxCell>} */
      const cells = new Map();
      let rowCount = 0;
      const lastColumn = new Map();
      for (const row of ws.sheetData?.row ?? []) {
        for (const c of row.c ?? []) {
          const { column, row: r } = position(c.r);
          const type = c.t ?? 'n';
          const style = xfs[Number(c.s ?? 0)] ?? { numFmt: 'General', bold: false };
          const raw = typeof c.v === 'object' ? c.v?.['#text'] : c.v;
          /** @type {string | number | boolean | null} */
          let value = null;
          if (type === 's') value = strings[Number(raw)];
          else if (type === 'inlineStr') value = textOf(c.is);
          else if (type === 'str' || type === 'e') value = raw === undefined ? null : String(raw);
          else if (type === 'b') value = raw === '1';
          else if (raw !== undefined) value = Number(raw);
          cells.set(`${r},${column}`, { value, type, numFmt: style.numFmt, bold: style.bold, formula: 'f' in c });
          rowCount = Math.max(rowCount, r);
          lastColumn.set(r, Math.max(lastColumn.get(r) ?? 0, column));
        }
      }
      /** @type {XlsxCell} */
      const empty = { value: null, type: 'n', numFmt: 'General', bold: false, formula: false };
      const cell = (/** @type {number} */ r, /** @type {number} */ column) => cells.get(`${r},${column}`) ?? empty;
      return {
        name,
        frozenRows,
        widths,
        rowCount,
        cell,
        values: (r) => Array.from({ length: lastColumn.get(r) ?? 0 }, (_, k) => cell(r, k + 1).value),
      };
    },
  };
}
