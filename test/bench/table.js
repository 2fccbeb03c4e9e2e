/**
 * A plain-text table for the bench scripts: the first two columns (labels)
 * aligned left, the figures right, two spaces apart.
 * @param {string[]} header
 * @param {string[][]} rows
 */
export function alignColumns(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [header, ...rows].map((r) => r.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')).join('\n');
}
