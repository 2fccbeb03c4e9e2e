/**
 * What a report says, as plain data (Findings, from summarize()'s rows read by column name): a section per (workload,
 * depth) with its verdict, and the sweep's warnings. Every formatter (terminal, Markdown, HTML, charts, xlsx, --json)
 * reads this. Pure.
 */
import { isOpenLoop, missedRate } from '../workloads/rate.js';
import { findKnees } from '../stats/knees.js';
import { depthLabel, sizeLabel } from '../workloads/index.js';
import { FIGURES, figureOf, primaryFigure, serverCpuMetric } from '../workloads/figures.js';
import { WIDE_CI, summarize, clientWarnings, counterWarnings, laneWarnings } from '../stats/summarize.js';
import { isVersionComparison } from '../stats/versions.js';
import { orderVersions } from '../core/node-executables.js';
import { BASELINE, HEADLINE, labelOf, orderTransports, othersOf, ratioOf } from '../transports/index.js';
import { estimatesOf, ratioAgainstTcp, ratioEstimatesOf } from './estimates.js';
import { formatRatio, mostDifferent, singleRunWords, toVerdict, workOf, workVerdict } from './verdict.js';
import { sendBufferWarning, somaxconnWarning, stealWarning, wakeupOfSections } from './machine.js';
import { versionFindings } from './versions.js';
import { describeReference } from './table.js';
import { resumeCommand } from '../core/shell.js';
import { executableVersions, resumeNodesOf } from '../results/meta.js';

/**
 * What to do about ratio intervals wider than wanted, for the sweep the results are of: with --precision, a larger
 * --max-time (the rule adds runs until it); without, the rule or more runs; --pin split unless the sweep was pinned so.
 * The one place the remedy is said (summary.md, `report`, and a sweep's stderr print the findings' warnings).
 * @param {{ precision: number | null, pinning: unknown }} sweep precision: meta.json spec.precision; pinning: meta.json pinning ('split: …')
 */
export function wideRemedy({ precision, pinning }) {
  const ways = [...(precision === null ? ['--precision 3% with --max-time', 'more --runs'] : ['a larger --max-time']), ...(/^split\b/.test(String(pinning ?? '')) ? [] : ['--pin split']), 'a quieter machine'];
  return `consider ${ways.slice(0, -1).join(', ')}, or ${ways[ways.length - 1]}`;
}

/** A coefficient of variation (sd / mean) above this deserves a warning. */
const CV_WARN = 0.05;

/**
 * @typedef {object} Estimate
 * @property {number} value the geometric mean where summary.csv has one, else the mean
 * @property {number | null} low 95 % CI
 * @property {number | null} high
 * @property {number} n
 * @property {number | null} [cv] sd / mean, a fraction
 * @property {number} [outliers]
 *
 * @typedef {Estimate & { significant: string | null }} RatioEstimate
 *
 * @typedef {object} Comparison
 * @property {Estimate | null} tcp
 * @property {Estimate | null} uds
 * @property {RatioEstimate | null} ratio UDS / TCP, paired by run
 * @property {Record<string, { value: Estimate | null, ratio: RatioEstimate | null }>} others every other transport
 *   measured (uds-abstract …), by name: its figure and its ratio to TCP, paired by run
 *
 * @typedef {object} SizeRow
 * @property {number} size_bytes
 * @property {Record<string, Comparison>} figures by metric; every figure of FIGURES and the primary one
 *
 * @typedef {object} Section
 * @property {string} workload
 * @property {string | null} node its Node version where a sweep measured several, else null
 * @property {number} depth
 * @property {string[]} transports measured, TCP first (lib/transports/ order)
 * @property {import('../workloads/figures.js').Figure} primary
 * @property {SizeRow[]} sizes
 * @property {string} verdict
 *
 * @typedef {object} Findings
 * @property {'complete' | 'interrupted' | 'unfinished' | 'unknown'} status
 * @property {{ recorded: number, ok: number, failed: number, planned: number | null }} trials
 * @property {Section[]} sections
 * @property {string[]} warnings
 * @property {string[]} stateWarnings those of the warnings that say the sweep's state: interrupted or unfinished (with
 *   the command that resumes it), no trials, failed trials; a sweep says these in its own closing lines instead
 * @property {string[]} machineWarnings those of the warnings that say what the machine set: wake-ups, UDS's send buffer, somaxconn, steal
 * @property {string[]} [serverNotes] how the server ran where a reader must know it: with --server-docker, whether in a
 *   real Docker container or the namespace emulation (meta.json design.docker)
 * @property {string[]} machineNotes what the machine set that is no cause for a warning: with both ends on one CPU
 *   (--pin same), that no cross-CPU wake-up was paid (said instead of the wake-up warning and share)
 * @property {import('./versions.js').VersionFinding[]} versions each Node version against the first (none with one version)
 * @property {import('../stats/knees.js').KneeFinding[]} knees each transport's knee, per size, where the sweep is open-loop (none otherwise)
 * @property {string[]} reference the lines of reference.csv (./table.js describeReference; none without that file)
 * @property {Record<string, any>[]} summary the rows of summarize()
 * @property {'geometric mean' | 'mean'} centre what the per-transport values are
 * @property {Record<string, any> | null} meta
 */

/**
 * An estimate from a summary row, whatever summary.csv's version (cv or cv_pct, geomean or not).
 * @param {Record<string, any> | undefined} row
 * @returns {Estimate | null}
 */
function estimateOf(row) {
  if (!row) return null;
  const num = (/** @type {unknown} */ v) => (typeof v === 'number' ? v : null);
  const cv = num(row.cv) ?? (typeof row.cv_pct === 'number' ? row.cv_pct / 100 : null);
  return { value: num(row.geomean) ?? row.mean, low: num(row.ci95_low), high: num(row.ci95_high), n: row.n, cv, outliers: num(row.outliers) ?? 0 };
}

/**
 * A ratio's estimate from its summary row, with whether its CI excludes 1.
 * @param {Record<string, any> | undefined} row
 * @returns {RatioEstimate | null}
 */
function ratioEstimateOf(row) {
  const estimate = estimateOf(row);
  return estimate && { ...estimate, significant: row?.significant ?? null };
}

/** @type {Map<unknown, Findings['status']>} meta.json's status as the findings say it; any other is unknown */
const STATUS = new Map([['complete', 'complete'], ['interrupted', 'interrupted'], ['running', 'unfinished']]);

/**
 * Planned trial rows (with those a target precision added), where meta.json tells.
 * @param {Record<string, any> | null} meta
 */
function plannedOf(meta) {
  if (typeof meta?.trials_planned === 'number') return meta.trials_planned + (typeof meta.extra_trial_rows === 'number' ? meta.extra_trial_rows : 0);
  const spec = meta?.spec;
  if (spec && Array.isArray(spec.sizes) && Array.isArray(spec.depths) && Array.isArray(spec.transports) && typeof spec.runs === 'number') {
    // a killed sweep's meta.json has no trials_planned: the plan's grid (lib/sweep/schedule.js), under each Node version
    const versions = Array.isArray(spec.node) && spec.node.length > 0 ? spec.node.length : 1;
    return spec.sizes.length * spec.depths.length * spec.transports.length * spec.runs * versions;
  }
  return null;
}

/** @param {Record<string, any>[]} failed */
function describeFailures(failed) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const r of failed) counts.set(String(r.error || 'no message'), (counts.get(String(r.error || 'no message')) ?? 0) + 1);
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
  return top.map(([message, n]) => `${n}× "${message}"`).join(', ') + (counts.size > 3 ? `, and ${counts.size - 3} other message(s)` : '');
}

/**
 * The Node versions of a sweep in order, the baseline first: as meta.json lists them, then any others the rows hold.
 * @param {Record<string, any>[]} trials
 * @param {Record<string, any> | null} meta
 * @returns {string[]}
 */
function versionsOf(trials, meta) {
  const listed = Array.isArray(meta?.nodes) ? meta.nodes.map((n) => n?.version).filter((v) => typeof v === 'string') : [];
  const found = trials.map((r) => r.node_version).filter((v) => typeof v === 'string' && v !== '');
  return orderVersions(found, listed);
}

/**
 * The summary rows of a results directory's trials (superseded rows left out), with the precision, intervals and Node
 * versions its meta.json records: what the report of that directory shows, whoever makes it.
 * @param {Record<string, any>[]} trials as read from trials.csv
 * @param {Record<string, any> | null} meta
 */
export function summaryOf(trials, meta) {
  // an open-loop row that missed its rate has figures of a saturated server or a late pacer, not of the transport at that rate
  const live = trials.filter((r) => r.status !== 'superseded' && !missedRate(r));
  const precision = typeof meta?.spec?.precision === 'number' ? meta.spec.precision : null;
  return summarize(live, { precision, moderate: meta?.spec?.intervals !== 'own', nodes: versionsOf(live, meta) });
}

/**
 * @param {{ trials: Record<string, any>[], meta: Record<string, any> | null, notes?: string[], dir?: string, reference?: Record<string, string>[] }} results
 * @param {{ primary?: import('../workloads/figures.js').Figure, summary?: Record<string, any>[] }} [options]
 *   primary: the figure verdicts are about (default: the workload's); summary: rows of summarize() when already computed
 * @returns {Findings}
 */
export function buildFindings({ trials: all, meta, notes = [], dir, reference = [] }, options = {}) {
  const trials = all.filter((r) => r.status !== 'superseded'); // rows a --retry-failed measured again
  const nodes = versionsOf(trials, meta);
  const summary = options.summary ?? summaryOf(trials, meta);
  const own = summary.filter((r) => !isVersionComparison(r)); // each version's own figures
  const ok = trials.filter((r) => r.status === 'ok');
  const failed = trials.filter((r) => r.status !== 'ok');
  const status = STATUS.get(meta?.status) ?? 'unknown';
  const planned = plannedOf(meta);
  const resume = resumeCommand(dir ?? 'DIR', resumeNodesOf(meta)); // with --node where the sweep had it, as the sweep prints it
  // a group with one run where the sweep planned more: resume it, or measure the failed trials again; not --runs
  const single = singleRunWords({ runs: typeof meta?.spec?.runs === 'number' ? meta.spec.runs : null, stopped: status === 'interrupted' || status === 'unfinished', retry: `${resume} --retry-failed` });
  const workloads = [...new Set(trials.map((r) => String(r.workload)))];
  if (workloads.length === 0 && typeof meta?.spec?.workload === 'string') workloads.push(meta.spec.workload);

  // summary rows by (workload, version, size, depth, transport, metric), the version '' where the sweep measured one (or rows of none)
  // the versions meta.json lists: a --node sweep stopped before its second version ran still labels its sections
  const listed = Array.isArray(meta?.nodes) ? [...new Set(meta.nodes.map((/** @type {any} */ n) => n?.version).filter((v) => typeof v === 'string'))] : [];
  const many = nodes.length > 1 || (listed.length > 1 && trials.length > 0);
  const versionKey = (/** @type {unknown} */ v) => (many ? String(v) : '');
  const keyOf = (/** @type {Record<string, any>} */ s) => `${s.workload}|${versionKey(s.node_version)}|${Number(s.size_bytes)}|${Number(s.depth)}|${s.transport}|${s.metric}`;
  const summaryIndex = new Map([...own].reverse().map((s) => [keyOf(s), s])); // the first row of a key wins
  /** the distinct values of a column, ascending @param {Record<string, any>[]} rows @param {string} column */
  const distinct = (rows, column) => [...new Set(rows.map((r) => Number(r[column])))].sort((a, b) => a - b);

  /** @type {Section[]} */
  const sections = [];
  for (const workload of workloads) {
    const primary = options.primary ?? primaryFigure(workload);
    const transports = orderTransports(trials.filter((r) => r.workload === workload).map((r) => String(r.transport)));
    const others = othersOf(transports);
    for (const node of many ? nodes : [null]) {
      const mine = trials.filter((r) => r.workload === workload && versionKey(r.node_version) === versionKey(node));
      for (const depth of distinct(mine, 'depth')) {
        const sizes = distinct(mine.filter((r) => Number(r.depth) === depth), 'size_bytes');
        const rows = sizes.map((size) => {
          const pick = (/** @type {string} */ transport, /** @type {string} */ metric) => summaryIndex.get(`${workload}|${versionKey(node)}|${size}|${depth}|${transport}|${metric}`);
          /** @type {Record<string, Comparison>} */
          const figures = {};
          for (const metric of new Set([primary.metric, ...Object.keys(FIGURES)])) {
            figures[metric] = /** @type {Comparison} */ ({
              [BASELINE]: estimateOf(pick(BASELINE, metric)),
              [HEADLINE]: estimateOf(pick(HEADLINE, metric)),
              ratio: ratioEstimateOf(pick(ratioOf(HEADLINE), metric)),
              others: Object.fromEntries(others.map((t) => [t, { value: estimateOf(pick(t, metric)), ratio: ratioEstimateOf(pick(ratioOf(t), metric)) }])),
            });
          }
          return { size_bytes: size, figures };
        });
        const verdictSizes = (/** @type {string} */ t) => rows.map((r) => ({ size_bytes: r.size_bytes, ratio: ratioAgainstTcp(r.figures[primary.metric], t), mechanism: mostDifferent(r.figures, primary.metric, t) }));
        // one transport measured alone: what it measured, nothing compared
        const alone = transports.length === 1 ? { transport: transports[0], sizes: rows.map((r) => ({ size_bytes: r.size_bytes, measured: Boolean(estimatesOf(r.figures[primary.metric])[transports[0]]) })) } : undefined;
        const verdict = toVerdict({
          workload, node, depth, alone,
          sizes: transports.includes(HEADLINE) || !others.length ? verdictSizes(HEADLINE) : [],
          others: others.map((t) => ({ label: labelOf(t), sizes: verdictSizes(t) })),
        }, primary, { workloadLabel: workloads.length > 1, single });
        // with --server-work or --server-delay: what each transport saved of the primary figure and of the server's CPU
        const serverCpu = serverCpuMetric(workload);
        const shares = (/** @type {string} */ t) => rows.map((r) => ({ size_bytes: r.size_bytes, shares: [primary.metric, serverCpu].filter((m) => m && r.figures[m]).map((m) => ({ figure: figureOf(/** @type {string} */ (m), workload), ratio: ratioAgainstTcp(r.figures[/** @type {string} */ (m)], t) })) }));
        const work = workOf(meta?.spec);
        const workVerdicts = work ? transports.filter((t) => t !== BASELINE).map((t) => workVerdict(work, shares(t), labelOf(t), (n) => sizeLabel(workload, n))) : [];
        sections.push({ workload, node, depth, transports, primary, sizes: rows, verdict: [verdict, ...workVerdicts].filter(Boolean).join(' ') });
      }
    }
  }

  const warnings = [...notes];
  const recorded = `${trials.length}${planned ? ` of ${planned}` : ''} trial rows recorded; complete it with: ${resume}`;
  if (status === 'interrupted') warnings.push(`the sweep was interrupted: ${recorded}`);
  if (status === 'unfinished') warnings.push(`meta.json says the sweep is still running, or it was killed before it finished: ${recorded}`);
  if (trials.length === 0) warnings.push('no trials recorded: nothing to report');
  else if (ok.length === 0) warnings.push(`every trial failed (${failed.length}): ${describeFailures(failed)}`);
  else if (failed.length) warnings.push(`${failed.length} of ${trials.length} trials failed (status=error in trials.csv): ${describeFailures(failed)}`);
  const unmeasured = trials.length ? listed.filter((v) => !nodes.includes(v)) : [];
  if (unmeasured.length) warnings.push(`no trial rows of Node ${unmeasured.join(', ')}, which the sweep lists: its versions are not compared`);
  const stateWarnings = warnings.slice(notes.length);

  // what the machine set (docs/regimes.md) and lanes under unequal conditions: a sweep prints these under its verdicts too
  const wakeup = wakeupOfSections(sections, meta?.machine, meta?.pinning); // with both ends on one CPU, a note instead of a warning
  const machineWarnings = /** @type {string[]} */ ([wakeup.warning, sendBufferWarning(sections, meta?.machine), somaxconnWarning(sections, meta), stealWarning(meta?.sessions), ...laneWarnings(trials)].filter(Boolean));
  warnings.push(...machineWarnings);
  const machineNotes = wakeup.note ? [wakeup.note] : [];
  // --server-docker: whether the server ran in a real container or the namespace emulation, and whether sessions differed
  const serverNotes = typeof meta?.design?.docker === 'string' ? [`docker: ${meta.design.docker}`] : [];
  const dockerSessions = Array.isArray(meta?.sessions) && meta?.spec?.serverDocker ? meta.sessions.map((s) => Boolean(s?.executables?.docker)) : [];
  for (const [name, seen] of executableVersions(meta)) {
    if (seen.length > 1) warnings.push(`sessions of this sweep ran ${name} ${seen.join(', ')} (a resume ran another): their runs are pooled; meta.json sessions[].executables says which ran when`);
  }
  if (new Set(dockerSessions).size > 1) warnings.push(`sessions of this sweep ran the server differently: ${dockerSessions.filter(Boolean).length} in a real Docker container, ${dockerSessions.filter((d) => !d).length} in the namespace emulation (no Docker daemon answered); meta.json sessions[].executables.docker says which`);

  /** a group for people, its Node version first where there are several @param {Section} s @param {number} size */
  const groupOf = (s, size) => `${s.node ? `Node ${s.node} ` : ''}${sizeLabel(s.workload, size)} ${depthLabel(s.workload, s.depth)}`;
  const missing = ok.length === 0 ? [] : sections.flatMap((s) => s.sizes.flatMap((row) => {
    const lacking = s.transports.filter((t) => !estimatesOf(row.figures[s.primary.metric])[t]).map(labelOf);
    return lacking.length ? [`${groupOf(s, row.size_bytes)} (${lacking.join(', ')})`] : [];
  }));
  const openLoop = trials.some(isOpenLoop);
  if (missing.length) warnings.push(`no comparison where a transport has no successful trial${openLoop ? ' (in open loop, none that kept its rate)' : ''}: ${missing.join('; ')}`);

  const primaryRatios = sections.flatMap((s) => s.sizes.flatMap((r) => ratioEstimatesOf(r.figures[s.primary.metric]).map(({ ratio }) => ({ s, r, ratio })))).filter((x) => x.ratio);
  const ratioWords = sections.some((s) => othersOf(s.transports).length) ? 'ratio' : labelOf(ratioOf(HEADLINE));
  if (primaryRatios.length && primaryRatios.every((x) => x.ratio?.low === null)) {
    // where more runs were planned, the verdicts say why there is one and what to do (singleRunWords), not --runs
    const more = typeof meta?.spec?.runs === 'number' && meta.spec.runs >= 2;
    const stopped = status === 'interrupted' || status === 'unfinished'; // planned more: the resume command is given above
    warnings.push(`one run per group${stopped ? ' so far' : ''}: no confidence intervals and no verdicts on significance${more ? '' : '; run 2 or more (--runs), 10 or more for firm ones'}`);
  }
  // wider than --precision asked where it did (the groups summary.csv says precision_met no of), else than WIDE_CI
  const precision = typeof meta?.spec?.precision === 'number' ? meta.spec.precision : null;
  const limit = precision ?? WIDE_CI;
  const wide = primaryRatios.filter((x) => x.ratio && x.ratio.low !== null && x.ratio.high !== null && Math.max(x.ratio.high / x.ratio.value - 1, 1 - x.ratio.low / x.ratio.value) > limit);
  if (wide.length) {
    const widest = wide.reduce((a, b) => ((/** @type {any} */ (a.ratio).high / /** @type {any} */ (a.ratio).low) >= (/** @type {any} */ (b.ratio).high / /** @type {any} */ (b.ratio).low) ? a : b));
    warnings.push(`${wide.length} of ${primaryRatios.filter((x) => x.ratio?.low !== null).length} ${ratioWords} intervals are wider than ${precision === null ? '' : 'the '}±${+(limit * 100).toFixed(3)} %${precision === null ? '' : ' target of --precision'}, widest ${groupOf(widest.s, widest.r.size_bytes)} (${formatRatio(/** @type {number} */ (widest.ratio?.low))}–${formatRatio(/** @type {number} */ (widest.ratio?.high))}); ${wideRemedy({ precision, pinning: meta?.pinning })}`);
  }
  const tested = primaryRatios.filter((x) => x.ratio?.significant === 'yes' || x.ratio?.significant === 'no');
  const significant = tested.filter((x) => x.ratio?.significant === 'yes').length;
  if (significant && tested.length > 1) warnings.push(`${significant} of ${tested.length} comparisons have a 95 % CI that excludes 1; with ${tested.length} comparisons about ${(tested.length * 0.05).toFixed(1)} could do so by chance alone`);

  const noisy = sections.flatMap((s) => s.sizes.flatMap((r) => s.transports.map((t) => ({ s, r, t, e: /** @type {any} */ (estimatesOf(r.figures[s.primary.metric])[t]) })))).filter((x) => x.e && x.e.cv !== null && x.e.cv > CV_WARN);
  if (noisy.length) {
    const worst = noisy.reduce((a, b) => (a.e.cv >= b.e.cv ? a : b));
    warnings.push(`${noisy.length} groups' ${sections[0].primary.short} vary by more than ${CV_WARN * 100} % (coefficient of variation) between runs, worst ${(worst.e.cv * 100).toFixed(1)} % (${groupOf(worst.s, worst.r.size_bytes)} ${labelOf(worst.t)})`);
  }
  const outliers = sections.reduce((n, s) => n + s.sizes.reduce((m, r) => m + Object.values(estimatesOf(r.figures[s.primary.metric])).reduce((k, e) => k + (e?.outliers ?? 0), 0), 0), 0);
  if (outliers) warnings.push(`${outliers} trial(s) are outliers by median/MAD (|modified Z| > 3.5); kept, and counted in summary.csv "outliers"`);
  warnings.push(...clientWarnings(trials), ...counterWarnings(trials));

  const versions = versionFindings(summary, (workload) => options.primary ?? primaryFigure(workload));
  const centre = summary.some((r) => typeof r.geomean === 'number') ? 'geometric mean' : 'mean';
  const knees = findKnees(trials, { several: many });
  return { status, centre, trials: { recorded: trials.length, ok: ok.length, failed: failed.length, planned }, sections, versions, knees, reference: describeReference(reference), warnings, stateWarnings, machineWarnings, machineNotes, serverNotes, summary, meta };
}
