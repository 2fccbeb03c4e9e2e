/** JSON Lines: one record per line, keys in its workload's column order. */
import { recordFields } from '../trial/record.js';

/** @param {import('../trial/record.js').TrialRecord} record */
export function toJsonLine(record) {
  return `${JSON.stringify(record, recordFields(record.workload))}\n`;
}

/** An interval as the documents give it. @param {import('../stats/ratios.js').RatioInterval | null} r */
const interval = (r) => r && { n: r.n, mean: r.mean, low: r.low, high: r.high };

/**
 * The report as one JSON document: the findings (their sections hold each size's figures, with every other
 * transport and its ratio to TCP under `others`) and what meta.json says of the environment, spec and Nodes.
 * @param {import('../report/findings.js').Findings} findings
 * @param {{ dir?: string, files?: string[] }} [options]
 * @returns {Record<string, any>} plain JSON data: a figure that is not finite is null
 */
export function toReportDocument(findings, { dir, files = [] } = {}) {
  const document = {
    dir: dir ?? null,
    status: findings.status,
    trials: findings.trials,
    primary: findings.sections[0]?.primary ?? null,
    verdicts: findings.sections.map((s) => s.verdict),
    sections: findings.sections.map((s) => ({ workload: s.workload, node: s.node, depth: s.depth, transports: s.transports, primary: s.primary.metric, verdict: s.verdict, sizes: s.sizes })),
    versions: findings.versions.map((v) => ({ workload: v.workload, node: v.node, base: v.base, primary: v.primary.metric, line: v.line, ratios: v.ratios, transports: v.transports, groups: v.groups })),
    knees: findings.knees.map((k) => ({
      workload: k.workload, node: k.node, size_bytes: k.size_bytes, rates: k.rates, line: k.line,
      transports: k.transports.map((t) => ({ ...t, interval: interval(t.interval) })),
      spectrum: k.spectrum,
      ratios: Object.fromEntries(Object.entries(k.ratios).map(([t, r]) => [t, interval(r)])),
      bounds: Object.fromEntries(Object.entries(k.bounds).map(([t, b]) => [t, { side: b.side, ...interval(b.interval) }])),
    })),
    reference: findings.reference,
    warnings: findings.warnings,
    summary: findings.summary,
    environment: findings.meta?.environment ?? null,
    nodes: findings.meta?.nodes ?? null,
    spec: findings.meta?.spec ?? null,
    files,
  };
  return JSON.parse(JSON.stringify(document, (_, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v)));
}

/**
 * A report document (toReportDocument) as the text `report --json` and `sweep --json` print.
 * @param {Record<string, any>} document
 */
export function toJsonText(document) {
  return `${JSON.stringify(document, null, 2)}\n`;
}
