/**
 * Two sweeps side by side (docs/cli.md#compare): B/A per group both hold (within each Node version where a sweep
 * measured several) and per figure, as COMPARE_STATISTIC says. Pure; in the text, what came from the results
 * directories is printable() (controls escaped).
 */
import { UsageError } from '../core/errors.js';
import { groupRows, logsByRun } from '../stats/ratios.js';
import { printable } from '../core/text.js';
import { welchLogRatio } from '../stats/welch.js';
import { FIGURES } from '../workloads/figures.js';
import { labelOf, orderTransports, ratioTransport, ratiosOf } from '../transports/index.js';
import { depthLabel, sizeLabel, workloadOf } from '../workloads/index.js';
import { human, plain, textTable } from './table.js';
import { executableVersions } from '../results/meta.js';

export const COMPARE_STATISTIC = "B/A: ratio of the geometric means over runs; 95 % CI from Welch's t-test on the log values of the per-run figures (Welch–Satterthwaite df, rounded down)";

/**
 * @typedef {object} CompareRow
 * @property {string} workload
 * @property {string | null} node_version where a sweep measured several Node versions; else null
 * @property {number} size_bytes
 * @property {number} depth
 * @property {string} transport tcp, uds, uds-abstract …, or a ratio to TCP: uds/tcp, uds-abstract/tcp …
 * @property {string} metric
 * @property {number | null} a geometric mean in A (the ratio to TCP on ratio rows)
 * @property {number} n_a runs in A
 * @property {number | null} b
 * @property {number} n_b
 * @property {number | null} ratio B/A
 * @property {number | null} ci95_low
 * @property {number | null} ci95_high
 * @property {number | null} df
 * @property {'yes' | 'no' | null} significant
 */

/**
 * @param {Record<string, any>} r
 * @param {boolean} byVersion
 */
const groupKey = (r, byVersion) => `${r.workload}|${Number(r.size_bytes)}|${Number(r.depth)}${byVersion ? `|${r.node_version}` : ''}`;

/**
 * The rows of each (workload, size, depth) group, and Node version where one sweep measured several.
 * @param {Record<string, any>[]} trials
 * @param {boolean} byVersion
 */
const groupsOf = (trials, byVersion) => new Map(groupRows(trials).map((g) => [groupKey(g.rows[0], byVersion), g.rows]));

/** @param {number[]} logs */
const geomean = (logs) => (logs.length ? Math.exp(logs.reduce((a, b) => a + b, 0) / logs.length) : null);

/** Group keys in order: by depth, then size. @param {string} x @param {string} y */
function byDepthThenSize(x, y) {
  const [[, sx, dx], [, sy, dy]] = [x, y].map((k) => k.split('|').map(Number));
  return dx - dy || sx - sy;
}

/** @param {string[]} keys group keys */
function describeGroups(keys) {
  const parts = [...keys].sort(byDepthThenSize).map((k) => k.split('|'));
  const shown = parts.slice(0, 6).map(([w, s, d, v]) => `${w} ${sizeLabel(w, Number(s))} ${depthLabel(w, d)}${v ? ` Node ${v}` : ''}`);
  return `${shown.join(', ')}${parts.length > 6 ? ` and ${parts.length - 6} more` : ''}`;
}

/**
 * @param {{ dir: string, trials: Record<string, any>[] }} a
 * @param {{ dir: string, trials: Record<string, any>[] }} b
 * @param {{ metrics?: string[] }} [options]
 * @returns {{ rows: CompareRow[], onlyA: string[], onlyB: string[] }}
 */
export function compareSweeps(a, b, { metrics = Object.keys(FIGURES) } = {}) {
  const byVersion = [a, b].some((sweep) => new Set(sweep.trials.map((r) => r.node_version ?? null)).size > 1);
  const groupsA = groupsOf(a.trials, byVersion);
  const groupsB = groupsOf(b.trials, byVersion);
  const shared = [...groupsA.keys()].filter((k) => groupsB.has(k));
  if (groupsA.size === 0) throw new UsageError(`${a.dir}: no trials recorded, nothing to compare`, 'ERR_COMPARE');
  if (groupsB.size === 0) throw new UsageError(`${b.dir}: no trials recorded, nothing to compare`, 'ERR_COMPARE');
  if (shared.length === 0) {
    throw new UsageError(`${a.dir} and ${b.dir} share no (workload, size, depth) group: A has ${describeGroups([...groupsA.keys()])}; B has ${describeGroups([...groupsB.keys()])}`, 'ERR_COMPARE');
  }
  shared.sort(byDepthThenSize);
  /** @type {CompareRow[]} */
  const rows = [];
  for (const key of shared) {
    const rowsA = /** @type {Record<string, any>[]} */ (groupsA.get(key));
    const rowsB = /** @type {Record<string, any>[]} */ (groupsB.get(key));
    const base = { workload: String(rowsA[0].workload), node_version: byVersion ? String(rowsA[0].node_version) : null, size_bytes: Number(rowsA[0].size_bytes), depth: Number(rowsA[0].depth) };
    const present = orderTransports([...rowsA, ...rowsB].map((r) => String(r.transport)));
    for (const metric of metrics) {
      for (const transport of [...present, ...ratiosOf(present)]) {
        // per run: the log of the transport's figure, or of its ratio to TCP in that run
        const [la, lb] = [rowsA, rowsB].map((rows) => [...logsByRun(rows, transport, metric).values()]);
        if (la.length === 0 && lb.length === 0) continue;
        const w = la.length && lb.length ? welchLogRatio(la, lb) : null;
        rows.push({ ...base, transport, metric, a: geomean(la), n_a: la.length, b: geomean(lb), n_b: lb.length, ratio: w?.ratio ?? null, ci95_low: w?.low ?? null, ci95_high: w?.high ?? null, df: w?.df ?? null, significant: w?.significant ?? null });
      }
    }
  }
  return { rows, onlyA: [...groupsA.keys()].filter((k) => !groupsB.has(k)), onlyB: [...groupsB.keys()].filter((k) => !groupsA.has(k)) };
}

/** A recorded value as JSON; one a sweep did not record (a meta.json of an older udsvstcp): `not recorded`. @param {unknown} v */
const shown = (v) => (v === undefined ? 'not recorded' : JSON.stringify(v));

/**
 * `name: A …, B …` where the two differ (a value neither sweep recorded says nothing).
 * @param {string} name
 * @param {unknown} va
 * @param {unknown} vb
 */
const differs = (name, va, vb) => ((va !== undefined || vb !== undefined) && shown(va) !== shown(vb) ? [`${name}: A ${shown(va)}, B ${shown(vb)}`] : []);

/** Spec keys left out of the differences: the preset's prose, which differs with the preset (said on its own). */
const UNCOMPARED_SPEC_KEYS = new Set(['description']);

/**
 * What differs between the two sweeps' specs (every key, the preset first), servers, environments, Nodes and
 * machines: one fact each.
 * @param {Record<string, any> | null} metaA
 * @param {Record<string, any> | null} metaB
 */
export function describeDifferences(metaA, metaB) {
  const [specA, specB] = [metaA?.spec, metaB?.spec].map((spec) => (spec && typeof spec === 'object' && !Array.isArray(spec) ? spec : {}));
  const specKeys = [...new Set([...Object.keys(specA), ...Object.keys(specB)])].filter((key) => !UNCOMPARED_SPEC_KEYS.has(key));
  const lines = specKeys.flatMap((key) => differs(key, specA[key], specB[key]));
  // with --server-docker, whether a real container ran or the namespace that stands in for one (meta.json design.docker)
  const docker = (/** @type {Record<string, any> | null} */ meta) => (typeof meta?.design?.docker === 'string' ? meta.design.docker : null);
  if (docker(metaA) !== docker(metaB)) lines.push(`server in Docker: A ${docker(metaA) ?? 'no'}, B ${docker(metaB) ?? 'no'}`);
  const environment = ['udsvstcp', 'node', 'v8', 'libuv', 'platform', 'os_release', 'arch', 'cpu_model', 'cpu_count', 'cpu_governor', 'stream_high_water_mark_bytes'];
  lines.push(...environment.flatMap((key) => differs(key, metaA?.environment?.[key], metaB?.environment?.[key])));
  // the Nodes measured (sweep --node), which need not be the one that ran udsvstcp
  const versions = (/** @type {Record<string, any> | null} */ meta) => (Array.isArray(meta?.nodes) ? meta.nodes.map((n) => n?.version ?? null) : null);
  // the servers and C clients that ran (meta.json sessions[].executables)
  const [programsA, programsB] = [executableVersions(metaA), executableVersions(metaB)];
  for (const name of [...new Set([...programsA.keys(), ...programsB.keys()])].sort()) lines.push(...differs(name, programsA.get(name)?.join(' + '), programsB.get(name)?.join(' + ')));
  return [...lines, ...differs('Node versions measured', versions(metaA), versions(metaB)), ...machineDifferences(metaA, metaB)];
}

/** A figure for people (10.2 %, 3.5 µs), or 'unknown'. @param {unknown} v @param {number} scale @param {string} unit */
const figure = (v, scale, unit) => (typeof v === 'number' && Number.isFinite(v) ? `${(v * scale).toFixed(1)} ${unit}` : 'unknown');

/**
 * The machine facts that set the regimes where the two sweeps differ (docs/cli.md#compare).
 * @param {Record<string, any> | null} metaA
 * @param {Record<string, any> | null} metaB
 */
export function machineDifferences(metaA, metaB) {
  const [ma, mb] = [metaA?.machine, metaB?.machine];
  const lines = [...new Set([...Object.keys(ma?.sysctl ?? {}), ...Object.keys(mb?.sysctl ?? {})])].sort().flatMap((name) => differs(name, ma?.sysctl?.[name], mb?.sysctl?.[name]));
  lines.push(...differs('virtualisation', ma?.virtualisation?.vm, mb?.virtualisation?.vm), ...differs('cpuidle driver', ma?.idle?.cpuidle_driver, mb?.idle?.cpuidle_driver));
  const wake = (/** @type {any} */ m) => (typeof m?.wakeup?.wake_cost_us === 'number' ? m.wakeup.wake_cost_us : null);
  // each as shown: two figures that round alike are no difference
  const both = (/** @type {string} */ name, /** @type {string} */ fa, /** @type {string} */ fb) => (fa === fb ? [] : [`${name}: A ${fa}, B ${fb}`]);
  lines.push(...both('wake-up cost per round trip (probe)', figure(wake(ma), 1, 'µs'), figure(wake(mb), 1, 'µs')));
  const steal = (/** @type {any} */ meta) => {
    const shares = (Array.isArray(meta?.sessions) ? meta.sessions : []).map((/** @type {any} */ s) => s?.cpu?.steal).filter((/** @type {unknown} */ v) => typeof v === 'number' && Number.isFinite(v));
    return shares.length ? Math.max(...shares) : null;
  };
  lines.push(...both('CPU time stolen by the hypervisor (most of any session)', figure(steal(metaA), 100, '%'), figure(steal(metaB), 100, '%')));
  return lines;
}

/**
 * The comparison for people: one table of the chosen figure, B/A with its CI.
 * @param {{ rows: CompareRow[], onlyA: string[], onlyB: string[] }} comparison
 * @param {{ metric?: string, differences?: string[], chalk?: import('chalk').ChalkInstance, a?: string, b?: string }} [options]
 */
export function toCompareText(comparison, { metric = 'msgs_per_s', differences = [], chalk = plain, a = 'A', b = 'B' } = {}) {
  const figure = FIGURES[metric] ?? { short: metric };
  const out = [`A = ${printable(a)}`, `B = ${printable(b)}`];
  if (differences.length) out.push(chalk.dim('differences:'), ...differences.map((line) => chalk.dim(`  ${printable(line)}`)), '');
  else out.push(chalk.dim('differences: none in the recorded environment and spec'), '');
  const byVersion = comparison.rows.some((r) => r.node_version);
  // the depth axis as the workload names it (rate for an open-loop sweep, connections for http)
  const workloads = new Set(comparison.rows.map((r) => r.workload));
  const depthHead = workloads.size === 1 ? workloadOf([...workloads][0]).axes.depth.short : 'depth';
  const head = [depthHead, 'size', byVersion ? 'node transport' : 'transport', `A ${figure.short}`, `B ${figure.short}`, 'B/A', '95 % CI', 'sig', 'runs A/B'];
  const rows = comparison.rows.filter((r) => r.metric === metric).map((r) => {
    const value = (/** @type {number | null} */ v) => (v === null ? '-' : ratioTransport(r.transport) !== null ? `×${v.toFixed(2)}` : human(v));
    return [String(r.depth), sizeLabel(r.workload, r.size_bytes), `${byVersion ? `${printable(String(r.node_version))} ` : ''}${printable(labelOf(r.transport))}`, value(r.a), value(r.b),
      r.ratio === null ? '-' : r.ratio.toFixed(3), r.ci95_low === null || r.ci95_high === null ? '-' : `${r.ci95_low.toFixed(3)}–${r.ci95_high.toFixed(3)}`,
      r.significant === 'yes' ? '*' : r.significant === 'no' ? '' : '-', `${r.n_a}/${r.n_b}`];
  });
  const numeric = [true, false, false, true, true, true, false, false, true];
  out.push(...textTable({ columns: head.map((title, i) => ({ title, numeric: numeric[i] })), rows }, chalk.bold));
  out.push('', chalk.dim(COMPARE_STATISTIC));
  const tested = comparison.rows.filter((r) => r.metric === metric && r.significant !== null);
  const significant = tested.filter((r) => r.significant === 'yes').length;
  if (tested.length) out.push(`${significant} of ${tested.length} comparisons have a 95 % CI that excludes 1 (marked *); about ${(tested.length * 0.05).toFixed(1)} would by chance alone.`);
  else out.push(chalk.yellow('warning: no confidence intervals: each side needs 2 or more successful runs of a group'));
  if (comparison.onlyA.length) out.push(chalk.yellow(`warning: only in A: ${printable(describeGroups(comparison.onlyA))}`));
  if (comparison.onlyB.length) out.push(chalk.yellow(`warning: only in B: ${printable(describeGroups(comparison.onlyB))}`));
  return `${out.join('\n')}\n`;
}
