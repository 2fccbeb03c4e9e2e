/**
 * The report for people, as text: for the terminal (a table and a verdict
 * per depth, then warnings) and as Markdown (summary.md, units in the
 * headers). Pure: findings in, strings out; colour from the Chalk given.
 * On the terminal, what came from the results directory is printable()
 * (controls escaped) before it is measured, padded and coloured.
 */
import { depthLabel } from '../workloads/index.js';
import { Chalk } from 'chalk';
import { depthTable, describeTable } from './depth-table.js';
import { isModerated } from '../stats/summarize.js';
import { printable } from '../core/text.js';
import { machineRows } from './machine.js';

const plain = new Chalk({ level: 0 });

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
 * @param {{ chalk?: import('chalk').ChalkInstance }} [options]
 */
export function toVerdictText(findings, { chalk = plain } = {}) {
  const lines = findings.sections.map((s) => chalk.bold(printable(s.verdict)));
  if (findings.sections.length === 0) lines.push(chalk.yellow('no verdict: no trials recorded'));
  return `${lines.join('\n')}\n`;
}

/**
 * @param {import('./findings.js').Findings} findings
 * @param {{ chalk?: import('chalk').ChalkInstance }} [options]
 */
export function toReportText(findings, { chalk = plain } = {}) {
  const out = [printable(describeState(findings)), ''];
  for (const section of findings.sections) {
    const table = depthTable(section);
    const { columns } = table;
    const rows = table.rows.map((r) => r.map(printable));
    const widths = columns.map((c, i) => Math.max(c.title.length, ...rows.map((r) => r[i].length)));
    const line = (/** @type {string[]} */ cells) => cells.map((cell, i) => (columns[i].numeric ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ').trimEnd();
    out.push(chalk.bold(printable(`${findings.sections.some((s) => s.workload !== section.workload) ? `${section.workload} ` : ''}${depthLabel(section.workload, section.depth)}`)));
    out.push(chalk.dim(line(columns.map((c) => c.title))));
    for (const r of rows) out.push(line(r));
    out.push(chalk.bold(printable(section.verdict)), '');
  }
  for (const w of findings.warnings) out.push(chalk.yellow(`warning: ${printable(w)}`));
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

/** @param {string} text */
const md = (text) => text.replace(/([\\|*_`[\]<>])/g, '\\$1');

/**
 * summary.md
 * @param {import('./findings.js').Findings} findings
 * @param {{ title?: string }} [options]
 */
export function toMarkdown(findings, { title = 'udsvstcp: UDS vs TCP' } = {}) {
  const out = [`# ${md(title)}`, '', md(describeState(findings)) + '.', ''];
  const env = describeEnvironmentLine(findings.meta);
  if (env) out.push(md(env), '');
  let mechanisms = false;
  for (const section of findings.sections) {
    const { columns, rows, mechanisms: has } = depthTable(section);
    mechanisms ||= has;
    out.push(`## ${findings.sections.some((s) => s.workload !== section.workload) ? `${md(section.workload)} ` : ''}${depthLabel(section.workload, section.depth)}`, '');
    out.push(md(section.verdict), '');
    out.push(`| ${columns.map((c) => md(c.heading)).join(' | ')} |`);
    out.push(`|${columns.map((c) => (c.numeric ? '---:' : '---')).join('|')}|`);
    for (const r of rows) out.push(`| ${r.map(md).join(' | ')} |`);
    out.push('');
  }
  if (findings.sections.length) out.push(md(describeTable(findings.sections[0].primary, findings.centre, isModerated(findings.summary), mechanisms)), '');
  if (findings.warnings.length) {
    out.push('## Warnings', '');
    for (const w of findings.warnings) out.push(`- ${md(w)}`);
    out.push('');
  }
  const machine = machineRows(findings.meta?.machine, findings.sections);
  if (machine.length) {
    out.push('## Machine', '');
    for (const [label, value] of machine) out.push(`- ${md(label)}: ${md(value)}`);
    out.push('');
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

/**
 * The environment in one line, from meta.json (empty when unknown).
 * @param {Record<string, any> | null} meta
 */
export function describeEnvironmentLine(meta) {
  const e = meta?.environment;
  if (!e) return '';
  const parts = [
    e.udsvstcp && `udsvstcp ${e.udsvstcp}`,
    e.node && `node ${e.node}${e.libuv ? ` (libuv ${e.libuv})` : ''}`,
    e.platform && `${e.platform} ${e.os_release ?? ''} ${e.arch ?? ''}`.replace(/\s+/g, ' ').trim(),
    e.cpu_model && `${e.cpu_count ? `${e.cpu_count}× ` : ''}${e.cpu_model}`,
    meta?.spec?.pin && `pin ${meta.spec.pin}`,
    meta?.started_at && `started ${meta.started_at}`,
  ].filter(Boolean);
  return parts.join(' · ');
}
