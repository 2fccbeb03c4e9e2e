/**
 * The report for people, as text: for the terminal (a table and a verdict per depth, then warnings) and as Markdown
 * (summary.md, units in the headers). Pure; colour from the Chalk given. On the terminal, what came from the results
 * directory is printable() (controls escaped) before it is measured, padded and coloured.
 */
import { depthLabel } from '../workloads/index.js';
import { depthTable, describeTable } from './depth-table.js';
import { printable } from '../core/text.js';
import { plain, textTable } from './table.js';
import { cpuTimeRows, machineRows } from './machine.js';
import { VERSION_TABLE_NOTE, versionTable } from './versions.js';

/**
 * One line: the sweep's state and how many trials it holds.
 * @param {import('./findings.js').Findings} findings
 */
export function describeState(findings) {
  const { status, trials } = findings;
  const state = { complete: 'complete', interrupted: 'interrupted', unfinished: 'not finished', unknown: 'state unknown' }[status];
  const planned = trials.planned !== null ? ` of ${trials.planned} planned` : '';
  return `sweep ${state}: ${trials.recorded} trial rows${planned}, ${trials.ok} ok, ${trials.failed} failed`;
}

/**
 * Verdict lines only (what a sweep prints at its end).
 * @param {import('./findings.js').Findings} findings
 */
export function toVerdictText(findings, { chalk = plain } = {}) {
  const lines = [...findings.sections.map((s) => chalk.bold(printable(s.verdict))), ...findings.versions.map((v) => chalk.bold(printable(v.line))), ...findings.knees.map((k) => chalk.bold(printable(k.line))), ...findings.reference.map((line) => printable(line))];
  if (findings.sections.length === 0) lines.push(chalk.yellow('no verdict: no trials recorded'));
  return `${lines.join('\n')}\n`;
}

/**
 * A section's heading: its workload where there are several, its Node version where there are several, its depth.
 * @param {import('./findings.js').Findings} findings
 * @param {import('./findings.js').Section} section
 */
export function sectionTitle(findings, section) {
  return `${findings.sections.some((s) => s.workload !== section.workload) ? `${section.workload} ` : ''}${section.node ? `Node ${section.node}, ` : ''}${depthLabel(section.workload, section.depth)}`;
}

/**
 * A version table's heading: its workload where the versions' workloads differ.
 * @param {import('./findings.js').Findings} findings
 * @param {import('./versions.js').VersionFinding} version
 */
export function versionTitle(findings, version) {
  return `Node ${version.node} against ${version.base}${findings.versions.some((v) => v.workload !== version.workload) ? ` (${version.workload})` : ''}`;
}

/**
 * @param {import('./findings.js').Findings} findings
 */
export function toReportText(findings, { chalk = plain } = {}) {
  const out = [printable(describeState(findings)), ''];
  const tables = [
    ...findings.sections.map((s) => ({ title: sectionTitle(findings, s), table: depthTable(s), line: s.verdict })),
    ...findings.versions.map((v) => ({ title: versionTitle(findings, v), table: versionTable(v), line: v.line })),
  ];
  for (const { title, table, line } of tables) {
    out.push(chalk.bold(printable(title)));
    out.push(...textTable(table, chalk.dim));
    out.push(chalk.bold(printable(line)), '');
  }
  for (const knee of findings.knees) out.push(chalk.bold(printable(knee.line)), '');
  if (findings.reference.length) out.push(...findings.reference.map((line) => printable(line)), '');
  for (const w of findings.warnings) out.push(chalk.yellow(`warning: ${printable(w)}`));
  for (const n of findings.serverNotes ?? []) out.push(`note: ${printable(n)}`);
  for (const n of findings.machineNotes) out.push(chalk.dim(`note: ${printable(n)}`));
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

/** @param {string} text */
const md = (text) => text.replace(/([\\|*_`[\]<>])/g, '\\$1');

/** The title of summary.md and report.html. */
export const TITLE = 'udsvstcp: UDS vs TCP';

/**
 * summary.md
 * @param {import('./findings.js').Findings} findings
 */
export function toMarkdown(findings) {
  const out = [`# ${md(TITLE)}`, '', md(describeState(findings)) + '.', ''];
  const env = describeEnvironmentLine(findings.meta);
  if (env) out.push(md(env), '');
  /** a heading and a bullet per item, where there are items @param {string} heading @param {string[]} items */
  const bullets = (heading, items) => {
    if (items.length) out.push(`## ${heading}`, '', ...items.map((item) => `- ${md(item)}`), '');
  };
  /** @param {{ columns: import('./depth-table.js').Column[], rows: string[][] }} table */
  const mdTable = ({ columns, rows }) => [
    `| ${columns.map((c) => md(c.heading)).join(' | ')} |`,
    `|${columns.map((c) => (c.numeric ? '---:' : '---')).join('|')}|`,
    ...rows.map((r) => `| ${r.map(md).join(' | ')} |`),
    '',
  ];
  for (const section of findings.sections) {
    out.push(`## ${md(sectionTitle(findings, section))}`, '');
    out.push(md(section.verdict), '');
    out.push(...mdTable(depthTable(section)));
  }
  if (findings.sections.length) out.push(md(describeTable(findings)), '');
  bullets('Knees', findings.knees.map((k) => k.line));
  bullets('Reference client', findings.reference);
  bullets('Node versions', findings.versions.map((v) => v.line));
  for (const version of findings.versions) {
    out.push(`### ${md(versionTitle(findings, version))}`, '');
    out.push(...mdTable(versionTable(version)));
  }
  if (findings.versions.length) out.push(md(VERSION_TABLE_NOTE), '');
  for (const n of findings.serverNotes ?? []) out.push(md(n), '');
  bullets('Warnings', findings.warnings);
  const machine = [...machineRows(findings.meta?.machine, findings.sections, findings.meta?.pinning), ...cpuTimeRows(findings.meta?.sessions)];
  bullets('Machine', machine.map(([label, value]) => `${label}: ${value}`));
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

/**
 * The environment in one line, from meta.json (empty when unknown).
 * @param {Record<string, any> | null} meta
 */
export function describeEnvironmentLine(meta) {
  const e = meta?.environment;
  if (!e) return '';
  // the Nodes measured (meta.json nodes), which need not be the one that ran udsvstcp
  const nodes = Array.isArray(meta?.nodes) ? meta.nodes.filter((n) => typeof n?.version === 'string') : [];
  const parts = [
    e.udsvstcp && `udsvstcp ${e.udsvstcp}`,
    nodes.length
      ? `node ${nodes.map((n, i) => `${n.version}${typeof n.libuv === 'string' ? ` (libuv ${n.libuv})` : ''}${i === 0 && nodes.length > 1 ? ' (baseline)' : ''}`).join(', ')}`
      : e.node && `node ${e.node}${e.libuv ? ` (libuv ${e.libuv})` : ''}`,
    e.platform && `${e.platform} ${e.os_release ?? ''} ${e.arch ?? ''}`.replace(/\s+/g, ' ').trim(),
    e.cpu_model && `${e.cpu_count ? `${e.cpu_count}× ` : ''}${e.cpu_model}`,
    meta?.spec?.pin && `pin ${meta.spec.pin}`,
    meta?.started_at && `started ${meta.started_at}`,
  ].filter(Boolean);
  return parts.join(' · ');
}
