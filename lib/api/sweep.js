/**
 * `sweep()`: the whole sweep `udsvstcp sweep` runs, as a library call: resolve and check the options, take the results
 * directory, record the machine, start and warm each Node version's server, run the planned trials and precision rounds,
 * write the summary files and the report. It says what it does through `onProgress` and resolves to the summary document.
 */
import { join, resolve } from 'node:path';
import { collectEnvironment, describeEnvironment } from '../core/environment.js';
import { backlogWarning } from '../core/backlog.js';
import { describeNodes } from '../core/node-executables.js';
import { isOtherNode, resumeCommand } from '../core/shell.js';
import { describeResourceError } from '../core/resources.js';
import { collectMachineFacts } from '../machine/wakeup-probe.js';
import { probeDocker } from '../fixture/docker.js';
import { startFixture, withNginxWords } from '../fixture/fixture.js';
import { runLanes } from '../trial/lanes.js';
import { runReference } from '../trial/reference.js';
import { describeReference } from '../report/table.js';
import { MIN_BLOCKS, TEST_MIN_BLOCKS } from '../client/blocks.js';
import { PROBE_TIMEOUT_MS } from '../fixture/probe.js';
import { describeCluster } from '../fixture/postgres-process.js';
import { connectionsAt, getWorkload } from '../workloads/index.js';
import { toCsv } from '../results/csv.js';
import { toReportDocument } from '../results/json.js';
import { endSessionLeftovers, recordSession } from '../results/fixture-record.js';
import { readResultsDir } from '../results/reader.js';
import { FILES, appendReference } from '../results/writer.js';
import { writeFileAtomic } from '../core/files.js';
import { toRunsWide } from '../results/wide.js';
import { SUMMARY_COLUMNS, summarize, toSummaryText } from '../stats/summarize.js';
import { MAX_FAILED_IN_A_ROW, MAX_REPLACEMENTS } from '../sweep/fixture-keeper.js';
import { runSweep } from '../sweep/orchestrator.js';
import { resolvePinning } from '../sweep/pinning.js';
import { autoRates } from '../sweep/rates-auto.js';
import { describeServers, resolveSweep } from '../sweep/request.js';
import { openSession } from '../sweep/session.js';
import { describeSpec } from '../sweep/spec.js';
import { summaryOf } from '../report/findings.js';
import { describeWakeup } from '../report/machine.js';
import { writeReport } from '../report/report-files.js';
import { chainOutcome } from './chain.js';

/**
 * @typedef {{ type: 'note', text: string }
 *   | { type: 'info', text: string, dim?: boolean }
 *   | { type: 'warning', text: string }
 *   | { type: 'status', text: string, dim?: boolean }
 *   | { type: 'start', workload: string, nodes: string[] }
 *   | { type: 'trial-start', job: import('../sweep/schedule.js').Job, index: number, total: number }
 *   | { type: 'trial-end', job: import('../sweep/schedule.js').Job, rows: Record<string, any>[], index: number, total: number }
 *   | { type: 'summary', text: string }
 *   | { type: 'recorded', rows: number, planned: number, extra: number, failed: number, files: string[] }} SweepEvent
 *   note: something found or done (a repair, a leftover removed); info: what is about to be done (dim: detail); status: said
 *   between trials (a server started, a precision round); trial-start, trial-end: index of total in the current list
 *   (the planned runs, then each precision round); recorded: the counts and files written, before the report
 */

/**
 * @typedef {object} SweepHooks
 * @property {(event: SweepEvent) => void} [onProgress]
 * @property {AbortSignal} [signal] aborted: stop, keep what was measured, write the files (status interrupted)
 * @property {AbortSignal} [hurry] aborted (with signal): kill the servers at once
 */

/**
 * @typedef {object} SweepOutcome what `udsvstcp sweep` prints from
 * @property {string} dir the results directory
 * @property {Record<string, any>} document the summary document (`sweep --json`)
 * @property {{ findings: import('../report/findings.js').Findings, files: string[] } | null} report null: it could not be made
 * @property {Error | null} reportError why the report could not be made
 * @property {boolean} interrupted trials were left unmeasured (signal)
 * @property {number} failed trial rows with status error
 * @property {string} resume the command that continues this sweep
 */

/**
 * @param {import('../sweep/request.js').SweepOptions} [options]
 * @param {SweepHooks} [hooks]
 * @returns {Promise<Record<string, any>>}
 */
export async function sweep(options = {}, hooks = {}) {
  // a chained preset (or a chain's directory to resume): its parts' sweeps, one document holding each part's
  return ((await chainOutcome(options, hooks)) ?? (await sweepOutcome(options, hooks))).document;
}

/**
 * @param {import('../sweep/request.js').SweepOptions} options
 * @param {SweepHooks} [hooks]
 */
export async function sweepOutcome(options, { onProgress = () => {}, signal = new AbortController().signal, hurry } = {}) {
  const request = resolveSweep(options);
  const { dir } = request;
  const note = (/** @type {string} */ text) => onProgress({ type: 'note', text });
  const session = openSession(request, note);
  // with --node where the sweep or this session was given it (a resume never reads its executables from meta.json)
  const resume = resumeCommand(dir, session.spec.node !== null || request.nodeList || isOtherNode(process.execPath) ? session.nodes : null);
  try {
    await endSessionLeftovers(dir, { resume: request.resume, ip: session.executables.ip?.path ?? null, docker: session.executables.docker?.path ?? null }, note);
    return await measure(session, { request, probe: options.probe !== false, reportFiles: options.report !== false, resume, onProgress, signal, hurry });
  } catch (error) {
    const err = error instanceof Error ? error : new Error(String(error));
    const unmarked = session.fail(err);
    // printed under the one-line message (lib/core/errors.js)
    /** @type {Error & { hint?: string }} */ (err).hint = !session.begun() && !request.resume
      ? `  nothing was recorded in ${dir} (the sweep stopped before its plan was fixed); run it again once the cause is fixed`
      : `  what was measured is kept in ${dir} (meta.json status: ${unmarked ? `not marked failed: ${unmarked.message}` : 'failed'}); after fixing the cause, continue with:\n  ${resume}`;
    throw err;
  } finally {
    session.release();
  }
}

/**
 * @param {ReturnType<typeof openSession>} session
 * @param {{ request: import('../sweep/session.js').SessionRequest, probe: boolean, reportFiles: boolean, resume: string, onProgress: (event: SweepEvent) => void, signal: AbortSignal, hurry?: AbortSignal }} context
 */
async function measure({ dir, spec, previous, executables, nodes, begin, end, recordReplacement }, { request, probe, reportFiles, resume, onProgress, signal, hurry }) {
  const info = (/** @type {string} */ text, dim = false) => onProgress({ type: 'info', text, dim });
  const pinning = resolvePinning(spec.pin);
  const environment = collectEnvironment();
  info(describeEnvironment(environment), true);
  // before the server starts: the probe's processes have the machine to themselves
  const machine = await collectMachineFacts({ probe, test: spec.test, signal });
  info(describeWakeup(machine), true);
  const workload = getWorkload(spec.workload);
  const versions = nodes.map((n) => n.version);
  const execPathOf = (/** @type {string | undefined} */ version) => nodes.find((n) => n.version === version)?.path ?? nodes[0].path;
  /** @param {string} [version] */
  const fixtureOptions = (version) => ({ greeting: spec.greeting, noDelay: spec.noDelay, prefix: pinning.server, nginx: executables.nginx?.path, redisServer: executables['redis-server']?.path, postgresBin: executables.postgres?.path, postgresTables: spec.sizes.includes(1), keepalive: spec.keepalive, connections: Math.max(...(spec.depths.length ? spec.depths : [1]).map((depth) => connectionsAt(workload, depth, spec))), execPath: execPathOf(version), netns: executables.ip?.path ?? null, portProxy: spec.portProxy, docker: executables.docker ?? null, work: spec.serverWorkMs === null && spec.serverDelayMs === null ? undefined : { us: (spec.serverWorkMs ?? 0) * 1000, delayMs: spec.serverDelayMs ?? 0, packetBytes: spec.sizes[0] } });
  const status = (/** @type {string} */ text, dim = false) => onProgress({ type: 'status', text, dim });
  /** fixture.json: what runs now, for a resume after a kill that took nginx's guard too */
  const record = recordSession(dir, (text) => status(`note: ${text}`));
  /** @type {string | undefined} */
  let ratesAuto;
  if (spec.depths.length === 0) {
    // --depths auto: the rates from the closed-loop capacity and the knees, measured now, before the plan is fixed and
    // recorded. A Ctrl-C ends only the bisection: the ladder is recorded, so the sweep it interrupts resumes
    const auto = await autoRates(spec, { fixture: fixtureOptions(versions[0]), prefix: pinning.client, placement: pinning.placement, execPath: execPathOf(versions[0]), signal, hurry });
    spec.depths = auto.rates;
    ratesAuto = auto.how;
    info(auto.how);
  }
  const docker = spec.serverDocker ? describeDocker(executables.docker) : null;
  const { log, blockLog } = begin({ environment, pinning: pinning.applied, design: { ...describeDesign(spec, docker), ...(ratesAuto ? { rates_auto: ratesAuto } : {}) }, machine });
  const live = previous.filter((r) => r.status !== 'superseded');

  info(`sweep ${describeSpec(spec)}`);
  const connections = Math.max(...spec.depths.map((depth) => connectionsAt(workload, depth, spec)));
  const backlog = backlogWarning({ connections, somaxconn: environment.net.somaxconn, flag: workload.options.includes('connections') ? `--connections ${connections}` : `--depths ${Math.max(...spec.depths)}` });
  if (backlog) onProgress({ type: 'warning', text: backlog });
  for (const line of describeServers(executables, workload)) info(line);
  if (executables.ip && !executables.docker) info(`ip: ${executables.ip.path} (iproute2 ${executables.ip.version}): the server in a network namespace${spec.portProxy ? ', TCP through a port proxy' : ', TCP over the bridge'}`);
  if (docker) info(`docker: ${docker}`);
  info(`node: ${describeNodes(nodes)}${nodes.length > 1 ? `; ${nodes[0].version} is the baseline` : ''}`);
  if (pinning.note) onProgress({ type: 'note', text: pinning.note });
  info(`results: ${resolve(dir)}${request.resume ? ` (resuming: ${live.length} trial rows already there)` : ''}`);

  // the workload's reference client (redis-benchmark beside redis), after each trial on the same server
  const found = workload.reference ? executables[workload.reference.client] : undefined;
  const referenceBinary = found?.path ?? null;
  if (workload.reference && !found) onProgress({ type: 'note', text: workload.reference.missing });
  if (workload.reference && found) info(`${workload.reference.client}: ${found.path} (${found.version}), after each trial against the same server, into ${FILES.reference}`);
  /** @type {number | undefined} the run of the trial in progress (trials run one at a time) */
  let currentRun;
  /** @type {Record<string, unknown>[]} this session's reference rows */
  const referenceRows = [];
  /** @type {string[]} why a run of the server's own C client (pgbench) gave no figures */
  const referenceErrors = [];

  onProgress({ type: 'start', workload: spec.workload, nodes: versions });
  /** @type {Set<import('../fixture/fixture.js').Fixture>} one per Node version */
  const servers = new Set();
  const killAll = () => { for (const server of servers) server.kill(); };
  hurry?.addEventListener('abort', killAll);
  const trialOptions = { prefix: pinning.client, limitMs: spec.trialTimeoutMs, signal };
  let result;
  try {
    result = await runSweep(spec, {
      nodes: versions,
      log,
      blockLog,
      previous: live,
      signal,
      startServer: async (version) => {
        const fixture = await startFixture(workload, { ...fixtureOptions(version), configDir: resolve(dir), configName: versions.length > 1 ? `nginx-${version}.conf` : undefined, session: record });
        servers.add(fixture);
        if (hurry?.aborted) fixture.kill();
        status(fixture.describe, true);
        return fixture;
      },
      // its result is not recorded; a server that cannot echo fails the first measured trial instead.
      // --test checks that the tool works, not figures: no warm-up
      warmServer: spec.test ? undefined : async (_server, version, trial) => {
        const warm = { ...trial, measure: { ms: SERVER_WARMUP_MS }, warmup: { ms: 0 }, placement: pinning.placement };
        await runLanes(warm, { ...trialOptions, execPath: execPathOf(version) }).catch(() => undefined); // rejects only on a signal, which the sweep sees next
      },
      runTrial: async (trial, fixture) => {
        const mark = fixture.nginxLog?.mark();
        const measured = await runLanes({ ...trial, placement: pinning.placement }, { ...trialOptions, server: fixture, execPath: execPathOf(trial.node_version) });
        // the server's own C client after the trial's blocks: pgbench's figures as columns of its records (Fixture.reference),
        // redis-benchmark's as rows of reference.csv (Workload.reference)
        // its C client's failures are kept only with the trial (a trial a Ctrl-C discards leaves no warning about its rows)
        /** @type {string[]} */
        const errors = [];
        const result = fixture.reference ? await fixture.reference(measured, { prefix: pinning.client, signal, onError: (text) => errors.push(text) }) : measured;
        /** @type {Record<string, unknown>[]} */
        let rows = [];
        if (referenceBinary && !signal.aborted) rows = await runReference(workload, { binary: referenceBinary, trial, records: result.records, targets: fixture.targets, prefix: pinning.client, run: currentRun, signal });
        // a Ctrl-C during the C client's runs: the trial is not recorded (its reference cut short), and a resume measures it whole
        if (signal.aborted && (fixture.reference || referenceBinary)) throw new Error('interrupted');
        referenceErrors.push(...errors);
        if (rows.length) appendReference(dir, rows);
        referenceRows.push(...rows);
        return withNginxWords(result, fixture, mark);
      },
      onStart: (job, index, total) => {
        currentRun = job.run;
        onProgress({ type: 'trial-start', job, index, total });
      },
      onEnd: (job, rows, index, total) => onProgress({ type: 'trial-end', job, rows, index, total }),
      onNote: (text) => status(text),
      onReplace: recordReplacement,
    });
  } finally {
    hurry?.removeEventListener('abort', killAll);
  }

  const rows = [...live, ...result.rows];
  // summarised from trials.csv as it reads back (its numbers as written), as `udsvstcp report DIR` does:
  // summary.csv, the report and the document then say what report says of this directory, to the digit
  let summary;
  try {
    const written = readResultsDir(dir, { allowShared: request.allowShared });
    summary = summaryOf(written.trials, written.meta);
  } catch {
    summary = summarize(rows, { precision: spec.precision, moderate: spec.intervals === 'moderated', nodes: versions }); // unreadable: the report will say why
  }
  writeFileAtomic(join(dir, FILES.summary), toCsv(summary, SUMMARY_COLUMNS));
  const wide = toRunsWide(rows, { ...spec, nodes: versions });
  writeFileAtomic(join(dir, FILES.wide), toCsv(wide.rows, wide.columns));
  const failed = rows.filter((r) => r.status === 'error').length;
  end(result.interrupted ? 'interrupted' : 'complete', { trials_planned: result.planned, extra_trial_rows: rows.filter((r) => Number(r.run) >= spec.runs).length, max_time_reached: result.timeUp, trials_recorded: rows.length, trials_failed: failed, trials_superseded: previous.length - live.length });

  onProgress({ type: 'summary', text: toSummaryText(summary, { precision: spec.precision, workload: spec.workload }) });
  // the other warnings are the report's (findings.warnings), printed with its verdicts as `report DIR` prints them; these
  // are this session's runs of the server's own C client, whose errors (pgbench's) no file keeps for a report to read
  const failedReference = referenceRows.filter((r) => r.status === 'error');
  if (failedReference.length) onProgress({ type: 'warning', text: `${failedReference[0].client} failed in ${failedReference.length} run(s) (status error in ${FILES.reference}); the first: ${failedReference[0].error}` });
  if (referenceErrors.length) onProgress({ type: 'warning', text: `pgbench failed in ${referenceErrors.length} run(s): their pgbench_tps is empty in ${FILES.trials}; the first: ${referenceErrors[0]}` });
  const files = [FILES.trials, FILES.blocks, FILES.summary, FILES.wide, FILES.meta, ...(referenceRows.length ? [FILES.reference] : [])].map((file) => join(resolve(dir), file));
  onProgress({ type: 'recorded', rows: rows.length, planned: result.planned, extra: result.extra, failed, files });

  // the report: one that fails does not fail the sweep
  /** @type {SweepOutcome['report']} */
  let report = null;
  /** @type {Error | null} */
  let reportError = null;
  try {
    report = await writeReport(dir, { allowShared: request.allowShared, summary, write: reportFiles });
  } catch (error) {
    reportError = new Error(describeResourceError(error) ?? /** @type {Error} */ (error).message);
  }
  const document = toReportDocument(report?.findings ?? { status: result.interrupted ? 'interrupted' : 'complete', trials: { recorded: rows.length, ok: rows.length - failed, failed, planned: result.planned }, sections: [], versions: [], knees: [], reference: describeReference(referenceRows), warnings: ['the report could not be made (see stderr)'], stateWarnings: [], machineWarnings: [], machineNotes: [], summary, centre: 'geometric mean', meta: null }, { dir: resolve(dir), files: report?.files ?? [] });
  return { dir, document, report, reportError, interrupted: result.interrupted, failed, resume };
}

/** Unrecorded traffic through a new server before its first measured trial, per transport (none in test mode). */
const SERVER_WARMUP_MS = 300;

/**
 * With --server-docker, which ran, for the header and meta.json: a real container, or the emulation and why.
 * @param {{ version: string } | undefined} found the daemon that answered (lib/sweep/request.js)
 */
function describeDocker(found) {
  if (found) return `real (${found.version}, the server in a container named udsvstcp-…, image udsvstcp-node:…)`;
  const probed = probeDocker();
  return `emulated (${'reason' in probed ? probed.reason : 'no Docker daemon answered when the sweep began'}; the server in a network namespace instead)`;
}

/**
 * How the sweep measures, for meta.json.
 * @param {import('../sweep/spec.js').SweepSpec} spec
 * @param {string | null} [docker] with --server-docker: which ran (describeDocker)
 */
function describeDesign(spec, docker = null) {
  const workload = getWorkload(spec.workload);
  return {
    workload: `${workload.name}: ${workload.what}`,
    size_axis: workload.axes.size.label,
    depth_axis: workload.axes.depth.label,
    timed: workload.timed,
    primary: workload.primary,
    pairing: spec.pairing === 'blocks'
      ? 'one trial per (run, size, depth) holds a TCP and a UDS connection to the same server, each in a fresh lane process of its own, and alternates measured blocks A B B A …; every block starts and ends with nothing in flight'
      : 'one trial, in a fresh process, per (run, size, depth, transport), as in 2014',
    block_ms_target: spec.blockMs,
    block_rule: `at least the workload's minimum block, and at least block_ms_target at the slower transport's warmup rate; a timed trial runs at least ${spec.test ? `${TEST_MIN_BLOCKS} blocks per transport (test mode)` : `${MIN_BLOCKS} blocks per transport`}; every block is in ${FILES.blocks}`,
    measured_time_per_transport_ms: 'ms' in spec.measure ? spec.measure.ms : null,
    node_axis: spec.node === null
      ? 'one Node version: the one running udsvstcp (meta.json nodes)'
      : 'each Node version (meta.json nodes; the first is the baseline) has its own server, started with that Node once and warmed, and its own lane processes; every run measures every group under every version in one seeded random order, so versions are interleaved in time; a version against the baseline, for every transport of the sweep: per run log(its ratio to TCP under the version) − log(that under the baseline), and log(figure) − log(baseline figure), Student-t 95 % interval over runs, exp() back',
    ratio_interval: `Student-t 95 % interval of the mean per-run log(UDS/TCP), exp() back: runs (fresh processes) are the replicates; ${spec.intervals === 'own' ? 'each group on its own' : 'variances moderated across groups (docs/method.md)'}`,
    precision: spec.precision,
    max_time_ms: spec.maxTimeMs,
    server_lifetime: spec.server === 'round' ? 'a fresh server for each planned run and each precision round' : 'one server for the whole sweep (a new one only after it dies)',
    proxy: workload.fixture.proxy ? { upstream_keepalive: spec.keepalive, config: 'nginx.conf in this directory' } : null,
    ...(workload.fixture.server === 'postgres' ? { postgres: describeCluster({ tables: spec.sizes.includes(1) }) } : {}),
    ...(docker ? { docker } : {}),
    server_network: docker?.startsWith('real')
      ? `the server in a real Docker container (an image imported from the Node binary, its libraries and udsvstcp's lib/), on Docker's default bridge network docker0; TCP ${spec.portProxy ? 'through the port Docker publishes on 127.0.0.1 (its docker-proxy, whose CPU is charged to the proxy side)' : 'to the container\'s address on docker0'}; UDS through a socket file in a private host directory bind-mounted into the container (a shared volume)`
      : spec.serverNetns
      ? `the server in a network namespace of its own, joined to the host by a veth pair on a bridge (a /30 in 10.213.0.0/16, no route beyond it), as a container on a bridge network; TCP ${spec.portProxy ? 'through a port proxy on 127.0.0.1 (a Node process of ours forwarding each connection to the server\'s namespace address, as docker-proxy does for a published port; its CPU is charged to the proxy side)' : 'to the server\'s namespace address over the bridge'}; UDS through a socket file in a private directory both sides see (a shared volume)`
      : 'the server on the host, TCP on 127.0.0.1',
    server_warmup: spec.test ? 'none (test mode: a check that the tool works, not figures)' : `one unrecorded trial of the first group (${SERVER_WARMUP_MS} ms per transport) after the server starts`,
    fixture_health: `after a failed trial the fixture is checked: the server${workload.fixture.proxy ? ' and nginx' : ''} running, its socket file still the one it bound, and a short exchange answered on each transport within ${PROBE_TIMEOUT_MS} ms (${workload.fixture.proxy ? 'GET /1 through nginx' : `what the ${workload.fixture.server} server answers`}); a fixture that fails is killed (SIGKILL) and replaced by a new one${spec.test ? '' : ', warmed as after a restart,'} at most ${MAX_REPLACEMENTS} times per session, a sweep or a resume (each in fixture_replacements, with its session and why)`,
    failure_bound: `the sweep stops (status failed, resumable) after ${MAX_FAILED_IN_A_ROW} failed trials in a row, or when the fixture would need replacing a ${MAX_REPLACEMENTS + 1}th time; precision rounds add no run to a group whose last trial failed, so they add at most one failed trial per group`,
  };
}
