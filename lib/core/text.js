/**
 * Text for the terminal. Whatever comes from data (CSV cells, paths, meta.json strings, spec descriptions, TMPDIR,
 * messages quoting them) passes through printable() where it enters a people-facing line on stderr, before colour is
 * added and widths are measured, so a hostile cell can neither move the cursor, retitle the window, hide text nor
 * reorder a line. Data outputs (CSV, JSON on stdout, HTML, Markdown) have their own escaping and never pass through it.
 *
 * Escaped: every C0 control (tab and newline too: one value stays on one line), DEL, every C1 control, U+2028/U+2029
 * and the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069); \t, \n and \r as such, the
 * rest below U+0100 as \xHH, others as \uHHHH. A backslash is left alone: the result is for reading, not parsing back.
 */

const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu; // eslint-disable-line no-control-regex

/** @type {Record<string, string>} */
const SHORT = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * A value as it may be shown on a terminal: controls escaped (ESC → `\x1b`).
 * @param {unknown} value
 */
export function printable(value) {
  return String(value).replace(UNPRINTABLE, (char) => {
    const code = /** @type {number} */ (char.codePointAt(0));
    return SHORT[char] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
  });
}

/**
 * Several lines the program composed (a message with a hint under it): each line printable, the line breaks kept.
 * @param {string} text
 */
export function printableLines(text) {
  return text.split('\n').map(printable).join('\n');
}
