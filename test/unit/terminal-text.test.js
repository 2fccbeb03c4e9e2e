import { describe, expect, it } from 'vitest';
import { printable, printableLines } from '../../lib/core/text.js';
import { toTable } from '../../lib/report/table.js';
import { errorRecord } from '../../lib/trial/record.js';

describe('printable: data shown on a terminal has its controls escaped', () => {
  it('escapes C0 controls, DEL and C1 controls as \\xHH (tab, newline, return as \\t \\n \\r)', () => {
    expect(printable('a\u001b[2Jb')).toBe('a\\x1b[2Jb');
    expect(printable('\u001b]0;title\u0007')).toBe('\\x1b]0;title\\x07');
    expect(printable('\u0000\u0008\u007f\u0080\u009b31m')).toBe('\\x00\\x08\\x7f\\x80\\x9b31m');
    expect(printable('a\tb\nc\rd')).toBe('a\\tb\\nc\\rd');
  });

  it('escapes line and paragraph separators and bidirectional overrides and isolates as \\uHHHH', () => {
    expect(printable('x\u2028y\u2029z')).toBe('x\\u2028y\\u2029z');
    expect(printable('\u202aa\u202bb\u202cc\u202dd\u202ee')).toBe('\\u202aa\\u202bb\\u202cc\\u202dd\\u202ee');
    expect(printable('\u2066a\u2067b\u2068c\u2069')).toBe('\\u2066a\\u2067b\\u2068c\\u2069');
  });

  it('leaves printable text, non-ASCII included, as it is, and escaping twice changes nothing', () => {
    const text = 'UDS ×1.40 µs – 64 KiB ≥ naïve 日本 🚀 C:\\dir';
    expect(printable(text)).toBe(text);
    const once = printable('evil\u001b[31m\u202e');
    expect(printable(once)).toBe(once);
    expect(printable(42)).toBe('42');
  });

  it('printableLines keeps the line breaks the program wrote and escapes the rest', () => {
    expect(printableLines('failed: /tmp/\u001b[2Jx\n  resume with: udsvstcp sweep --resume x')).toBe('failed: /tmp/\\x1b[2Jx\n  resume with: udsvstcp sweep --resume x');
  });

  it('a table cell and an error row with ESC are escaped before the columns are padded', () => {
    const record = errorRecord({ workload: 'echo', transport: 'tcp', size_bytes: 64, depth: 1 }, new Error('cannot connect to /tmp/\u001b]0;pwned\u0007.sock'));
    const text = toTable([record]);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/); // eslint-disable-line no-control-regex
    expect(text).toContain('cannot connect to /tmp/\\x1b]0;pwned\\x07.sock');
    // the record itself (CSV and JSON data) keeps the bytes it was given
    expect(record.error).toBe('cannot connect to /tmp/\u001b]0;pwned\u0007.sock');
  });
});
