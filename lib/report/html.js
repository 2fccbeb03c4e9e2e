/**
 * report.html: one self-contained page (SVG charts and styles inline; no script, font, link or network reference of
 * any kind, and a Content-Security-Policy forbidding loads) with the verdicts, tables, warnings and environment. Pure.
 */
import { depthTable, describeTable } from './depth-table.js';
import { TITLE, describeEnvironmentLine, describeState, sectionTitle, versionTitle } from './report-text.js';
import { cpuTimeRows, machineRows } from './machine.js';
import { VERSION_TABLE_NOTE, versionTable } from './versions.js';

/** @param {unknown} text */
function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c] ?? c));
}

const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 1100px; padding: 0 1rem; color: #222; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #ccc; padding: .2rem .5rem; } td { white-space: nowrap; } th { background: #f3f3f3; font-weight: 600; }
td.n { text-align: right; }
.scroll { overflow-x: auto; }
.verdict { font-weight: 600; } .warnings li { color: #8a4b00; }
figure { margin: 1rem 0 2rem; overflow-x: auto; } figcaption { font-weight: 600; margin-bottom: .3rem; }
dl { display: grid; grid-template-columns: max-content auto; gap: .1rem 1rem; } dt { font-weight: 600; } dd { margin: 0; font-family: ui-monospace, monospace; }
.state { color: #555; }
`;

/** @param {[string, unknown][]} entries */
function rowsList(entries) {
  const items = entries.filter(([, v]) => v !== undefined);
  return `<dl>${items.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(typeof v === 'object' && v !== null ? JSON.stringify(v) : v)}</dd>`).join('')}</dl>`;
}

/**
 * @param {import('./findings.js').Findings} findings
 * @param {{ name: string, title: string, svg: string }[]} charts rendered charts, in order
 * @param {{ files?: string[] }} [options]
 */
export function toHtml(findings, charts, { files = [] } = {}) {
  const parts = [];
  parts.push('<!DOCTYPE html>', '<html lang="en"><head><meta charset="utf-8">',
    '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(TITLE)}</title><style>${STYLE}</style></head><body>`);
  parts.push(`<h1>${escapeHtml(TITLE)}</h1>`);
  parts.push(`<p class="state">${escapeHtml(describeState(findings))}</p>`);
  const env = describeEnvironmentLine(findings.meta);
  if (env) parts.push(`<p class="state">${escapeHtml(env)}</p>`);

  /** @param {string[]} lines */
  const verdicts = (lines) => `<ul>${lines.map((line) => `<li class="verdict">${escapeHtml(line)}</li>`).join('')}</ul>`;
  parts.push('<h2>Verdicts</h2>');
  if (findings.sections.length) parts.push(verdicts(findings.sections.map((s) => s.verdict)));
  else parts.push('<p class="verdict">No verdict: no trials recorded.</p>');
  if (findings.knees.length) parts.push('<h2>Knees</h2>', verdicts(findings.knees.map((k) => k.line)));
  if (findings.versions.length) parts.push('<h2>Node versions</h2>', verdicts(findings.versions.map((v) => v.line)));
  if (findings.reference.length) parts.push('<h2>Reference client</h2>', verdicts(findings.reference));

  for (const n of findings.serverNotes ?? []) parts.push(`<p>${escapeHtml(n)}</p>`);
  if (findings.warnings.length) {
    parts.push('<h2>Warnings</h2>', `<ul class="warnings">${findings.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul>`);
  }

  if (charts.length) {
    parts.push('<h2>Charts</h2>');
    for (const chart of charts) {
      // inline: no XML prolog, no namespace URIs (the HTML parser puts <svg> in the SVG namespace)
      const svg = chart.svg
        .replace(/^<\?xml[^>]*>\s*/, '')
        .replace(/<svg\b([^>]*)>/, (_, attrs) => `<svg${String(attrs).replace(/\s+xmlns(:\w+)?="[^"]*"/g, '')} role="img" aria-label="${escapeHtml(chart.title)}">`);
      parts.push(`<figure id="${escapeHtml(chart.name.replace(/\.svg$/, ''))}"><figcaption>${escapeHtml(chart.title)}</figcaption>${svg}</figure>`);
    }
  }

  /** @param {{ columns: import('./depth-table.js').Column[], rows: string[][] }} table */
  const htmlTable = ({ columns, rows }) => {
    parts.push(`<div class="scroll"><table><thead><tr>${columns.map((c) => `<th>${escapeHtml(c.heading)}</th>`).join('')}</tr></thead><tbody>`);
    for (const r of rows) parts.push(`<tr>${r.map((cell, i) => `<td${columns[i].numeric ? ' class="n"' : ''}>${escapeHtml(cell)}</td>`).join('')}</tr>`);
    parts.push('</tbody></table></div>');
  };
  for (const section of findings.sections) {
    const title = sectionTitle(findings, section);
    parts.push(`<h2>${escapeHtml(`${title[0].toUpperCase()}${title.slice(1)}`)}</h2>`);
    parts.push(`<p class="verdict">${escapeHtml(section.verdict)}</p>`);
    htmlTable(depthTable(section));
  }
  if (findings.sections.length) parts.push(`<p>${escapeHtml(describeTable(findings))}</p>`);
  for (const version of findings.versions) {
    parts.push(`<h2>${escapeHtml(versionTitle(findings, version))}</h2>`);
    parts.push(`<p class="verdict">${escapeHtml(version.line)}</p>`);
    htmlTable(versionTable(version));
  }
  if (findings.versions.length) parts.push(`<p>${escapeHtml(VERSION_TABLE_NOTE)}</p>`);

  const meta = findings.meta;
  parts.push('<h2>Environment</h2>');
  if (meta?.environment) parts.push(rowsList(Object.entries(meta.environment)));
  else parts.push('<p>Unknown: the results directory has no meta.json.</p>');
  const machine = [...machineRows(meta?.machine, findings.sections, meta?.pinning), ...cpuTimeRows(meta?.sessions)];
  if (machine.length) parts.push('<h2>Machine</h2>', rowsList(machine));
  if (Array.isArray(meta?.nodes) && meta.nodes.length) {
    // the Nodes measured: a line per version, the first the baseline
    parts.push('<h2>Node versions measured</h2>', `<ul>${meta.nodes.map((/** @type {any} */ n, /** @type {number} */ i) => `<li>${escapeHtml(`${n?.version} (V8 ${n?.v8}, libuv ${n?.libuv}): ${n?.path}${meta.nodes.length > 1 && i === 0 ? ' — the baseline' : ''}`)}</li>`).join('')}</ul>`);
  }
  if (meta?.spec) parts.push('<h2>Sweep</h2>', rowsList(Object.entries({ ...meta.spec, status: meta.status, started_at: meta.started_at, ended_at: meta.ended_at, pinning: meta.pinning })));
  if (files.length) parts.push('<h2>Files</h2>', `<ul>${files.map((f) => `<li><code>${escapeHtml(f)}</code></li>`).join('')}</ul>`);
  parts.push('</body></html>', '');
  return parts.join('\n');
}
