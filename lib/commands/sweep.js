/**
 * `udsvstcp sweep`: repeated, paired, isolated trials into a results
 * directory (trials.csv, blocks.csv, summary.csv, runs-wide.csv, meta.json,
 * and the report).
 */
import { join, resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { collectEnvironment, describeEnvironment } from '../core/environment.js';
import { backlogWarning, readSomaxconn } from '../core/backlog.js';
import { collectMachineFacts } from '../machine/facts.js';
import { describeWakeup } from '../report/machine.js';
import { createProgress } from './progress.js';
import { toCsv } from '../results/csv.js';
import { SUMMARY_COLUMNS, clientWarnings, counterWarnings, summarize, toSummaryText } from '../stats/summarize.js';
import { toRunsWide } from '../results/wide.js';
import { startFixture, withNginxWords } from '../fixture/fixture.js';
import { describeNginx, findNginx } from '../fixture/nginx.js';
import { requireNetns } from '../fixture/netns.js';
import { endSessionLeftovers, recordSession } from '../results/fixture-record.js';
import { resolveWorkloadOptions } from '../options/rules.js';
import { checkTempDir } from '../fixture/socket-file.js';
import { MIN_BLOCKS } from '../client/blocks.js';
import { DEFAULT_WORKLOAD, connectionsAt, getWorkload } from '../workloads/index.js';
import { resumeCommand } from '../core/shell.js';
import { printable } from '../core/text.js';
import { watchSignals } from '../sweep/interrupts.js';
import { MAX_FAILED_IN_A_ROW, MAX_REPLACEMENTS } from '../sweep/fixture-keeper.js';
import { runSweep, trialSpec } from '../sweep/orchestrator.js';
import { PROBE_TIMEOUT_MS } from '../fixture/probe.js';
import { resolvePinning } from '../sweep/pinning.js';
import { FILES, defaultOutDir, writeFileAtomic } from '../results/writer.js';
import { planTrials } from '../sweep/schedule.js';
import { checkNewOutDir, openSession } from '../sweep/session.js';
import { describeSpec, loadSpec, resolveSpec, toNodeList } from '../sweep/spec.js';
import { nodesForSweep } from '../sweep/node-axis.js';
import { describeNodes } from '../core/node-executables.js';
import { runTrialProcess } from '../trial/trial-process.js';
import { reportJson, reportSweep } from './report.js';
import { readResultsDir } from '../results/reader.js';
import { summaryOf } from '../report/findings.js';

/** Unrecorded traffic through a new server before its first measured trial, per transport. */
const SERVER_WARMUP_MS = 300;

/** Flags that override spec keys. */
const SPEC_FLAGS = ['workload', 'sizes', 'depths', 'transports', 'runs', 'packets', 'duration', 'warmup', 'seed', 'pin', 'trialTimeout', 'pairing', 'server', 'intervals', 'block', 'precision', 'maxTime', 'pipelining', 'keepalive', 'node', 'serverNetns', 'portProxy'];

/**
 * How the sweep measures, for meta.json.
 * @param {import('../sweep/spec.js').SweepSpec} spec
 */
function describeDesign(spec) {
  const workload = getWorkload(spec.workload);
  return {
    workload: `${workload.name}: ${workload.what}`,
    size_axis: workload.axes.size.label,
    depth_axis: workload.axes.depth.label,
    timed: workload.timed,
    primary: workload.primary,
    pairing: spec.pairing === 'blocks'
      ? 'one trial process per (run, size, depth) holds a TCP and a UDS connection to the same server and alternates measured blocks A B B A …; every block starts and ends with nothing in flight'
      : 'one trial process per (run, size, depth, transport), as in 2014',
    block_ms_target: spec.blockMs,
    block_rule: `at least the workload's minimum block, and at least block_ms_target at the slower transport's warmup rate; a timed trial runs at least ${MIN_BLOCKS} blocks per transport; every block is in ${FILES.blocks}`,
    measured_time_per_transport_ms: 'ms' in spec.measure ? spec.measure.ms : null,
    node_axis: spec.node === null
      ? 'one Node version: the one running udsvstcp (meta.json nodes)'
      : 'each Node version (meta.json nodes; the first is the baseline) has its own server, started with that Node once and warmed, and its own trial processes; every run measures every group under every version in one seeded random order, so versions are interleaved in time; a version against the baseline, for every transport of the sweep: per run log(its ratio to TCP under the version) − log(that under the baseline), and log(figure) − log(baseline figure), Student-t 95 % interval over runs, exp() back',
    ratio_interval: `Student-t 95 % interval of the mean per-run log(UDS/TCP), exp() back: runs (fresh processes) are the replicates; ${spec.intervals === 'own' ? 'each group on its own' : 'variances moderated across groups (docs/method.md)'}`,
    precision: spec.precision,
    max_time_ms: spec.maxTimeMs,
    server_lifetime: spec.server === 'round' ? 'a fresh server for each planned run and each precision round' : 'one server for the whole sweep (a new one only after it dies)',
    proxy: workload.fixture.proxy ? { upstream_keepalive: spec.keepalive, config: 'nginx.conf in this directory' } : null,
    server_network: spec.serverNetns
      ? `the server in a network namespace of its own, joined to the host by a veth pair on a bridge (a /30 in 10.213.0.0/16, no route beyond it), as a container on a bridge network; TCP ${spec.portProxy ? 'through a port proxy on 127.0.0.1 (a Node process of ours forwarding each connection to the server\'s namespace address, as docker-proxy does for a published port; its CPU is charged to the proxy side)' : 'to the server\'s namespace address over the bridge'}; UDS through a socket file in a private directory both sides see (a shared volume)`
      : 'the server on the host, TCP on 127.0.0.1',
    server_warmup: `one unrecorded trial of the first group (${SERVER_WARMUP_MS} ms per transport) after the server starts`,
    fixture_health: `after a failed trial the fixture is checked: the server${workload.fixture.proxy ? ' and nginx' : ''} running, its socket file still the one it bound, and a short exchange answered on each transport within ${PROBE_TIMEOUT_MS} ms (${workload.fixture.proxy ? 'GET /1 through nginx' : `what the ${workload.fixture.server} server answers`}); a fixture that fails is killed (SIGKILL) and replaced by a new one, warmed as after a restart, at most ${MAX_REPLACEMENTS} times per session, a sweep or a resume (each in fixture_replacements, with its session and why)`,
    failure_bound: `the sweep stops (status failed, resumable) after ${MAX_FAILED_IN_A_ROW} failed trials in a row, or when the fixture would need replacing a ${MAX_REPLACEMENTS + 1}th time; precision rounds add no run to a group whose last trial failed, so they add at most one failed trial per group`,
  };
}

/**
 * The spec of `sweep --workload NAME` without a preset: that workload's own
 * defaults (one size, one depth), 5 runs; flags add the rest.
 * @param {string} name
 */
function workloadSpec(name) {
  const w = getWorkload(name);
  return {
    name,
    source: `--workload ${name}`,
    raw: { description: `--workload ${name} with its defaults`, workload: name, sizes: [w.axes.size.fallback], depths: [w.axes.depth.fallback], test: { runs: 2, duration: '40ms', warmup: '10ms' } },
  };
}

/**
 * The executables a sweep of `spec` runs: from the command line (--nginx) or
 * PATH, never from a spec file or meta.json.
 * @param {import('../sweep/spec.js').SweepSpec} spec
 * @param {string | undefined} nginx --nginx
 * @returns {import('../sweep/session.js').Executables}
 */
function findExecutables(spec, nginx) {
  const workload = getWorkload(spec.workload);
  resolveWorkloadOptions(workload, { nginx }, (key) => `--${key}`); // --nginx only for the proxy workload
  return {
    ...(workload.fixture.proxy ? { nginx: { ...describeNginx(findNginx(nginx)), from: nginx === undefined ? 'PATH' : '--nginx' } } : {}),
    ...(spec.serverNetns ? { ip: requireNetns(`sweep ${spec.preset}: serverNetns (--server-netns)`) } : {}),
  };
}

/**
 * Resolve what to do before anything starts; changes nothing on disk.
 * @param {string | undefined} preset
 * @param {Record<string, any>} opts
 * @returns {import('../sweep/session.js').SessionRequest}
 */
export function resolveSweep(preset, opts) {
  if (opts.packets !== undefined && opts.duration !== undefined) throw new UsageError('--packets and --duration exclude each other: give one');
  if (opts.retryFailed && opts.resume === undefined) throw new UsageError('--retry-failed needs --resume DIR: it measures again the failed trials recorded there');
  checkTempDir(); // the server's socket and nginx's files go there
  const flags = Object.fromEntries(SPEC_FLAGS.map((k) => [k, opts[k]]));
  const allowShared = Boolean(opts.allowSharedDir);
  const find = (/** @type {import('../sweep/spec.js').SweepSpec} */ spec) => findExecutables(spec, opts.nginx);
  if (opts.resume !== undefined) {
    if (opts.out !== undefined) throw new UsageError('--resume DIR and --out DIR exclude each other: the results go back into DIR');
    const anyGiven = preset !== undefined || opts.test || SPEC_FLAGS.some((k) => opts[k] !== undefined);
    return { dir: opts.resume, flag: '--resume', resume: true, given: anyGiven ? { preset, test: Boolean(opts.test), flags } : null, retryFailed: Boolean(opts.retryFailed), allowShared, findExecutables: find, nodeList: toNodeList(opts.node, '--node') };
  }
  const loaded = preset === undefined && opts.workload !== undefined && opts.workload !== DEFAULT_WORKLOAD ? workloadSpec(opts.workload) : loadSpec(preset ?? 'default');
  const spec = resolveSpec(loaded, { test: Boolean(opts.test), flags });
  const nodes = nodesForSweep(spec.node, '--node'); // not Node, too old, twice: exit 2 before any file exists
  const dir = opts.out ?? defaultOutDir(spec.preset);
  const flag = opts.out !== undefined ? '--out' : 'results directory';
  checkNewOutDir(dir, flag, allowShared);
  return { dir, flag, resume: false, spec, allowShared, findExecutables: find, nodes };
}

/**
 * @param {string | undefined} preset
 * @param {Record<string, any>} opts raw options from commander
 * @param {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream & { isTTY?: boolean }, chalk: import('chalk').ChalkInstance }} io
 * @returns {Promise<number>}
 */
export async function sweep(preset, opts, { stdout, stderr, chalk }) {
  const request = resolveSweep(preset, opts);
  const { dir } = request;
  const quiet = Boolean(opts.quiet);
  const say = (/** @type {string} */ text) => { if (!quiet) stderr.write(text); };

  /** @type {Set<import('../fixture/fixture.js').Fixture>} one per Node version */
  const servers = new Set();
  // installed before anything is created, and kept until the last file is written
  const interrupts = watchSignals({
    onFirst: (signal) => {
      stderr.write(`\n${signal}: stopping; what was measured is kept (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again kills the server at once)\n`);
    },
    onHurry: (signal) => {
      stderr.write(`${signal} again: stopping now (the server is killed); the results directory stays resumable\n`);
      for (const server of servers) server.kill();
    },
  });
  /**
   * The command that continues this sweep: with --node where the sweep or this session was given it
   * (a resume never reads its executables from meta.json), naming this session's executables.
   * @param {ReturnType<typeof openSession>} session
   */
  const resumeWith = (session) => resumeCommand(dir, session.spec.node !== null || request.nodeList ? session.nodes : null);
  try {
    const note = (/** @type {string} */ text) => say(chalk.yellow(`note: ${printable(text)}\n`));
    const session = openSession(request, note);
    try {
      await endSessionLeftovers(dir, { resume: request.resume, ip: session.executables.ip?.path ?? null }, note);
      return await measure(session, resumeWith(session));
    } catch (error) {
      const err = error instanceof Error ? error : new Error(String(error));
      const unmarked = session.fail(err);
      // printed under the one-line message (lib/core/errors.js)
      /** @type {Error & { hint?: string }} */ (err).hint = `  what was measured is kept in ${dir} (meta.json status: ${unmarked ? `not marked failed: ${unmarked.message}` : 'failed'}); after fixing the cause, continue with:\n  ${resumeWith(session)}`;
      throw err;
    } finally {
      session.release();
    }
  } finally {
    interrupts.dispose();
  }

  /**
   * @param {ReturnType<typeof openSession>} session
   * @param {string} resume the command that continues the sweep
   */
  async function measure({ spec, previous, executables, nodes, begin, end, recordReplacement }, resume) {
    const pinning = resolvePinning(spec.pin);
    const environment = collectEnvironment();
    say(chalk.dim(`${printable(describeEnvironment(environment))}\n`));
    // before the server starts: the probe's processes have the machine to themselves
    const machine = await collectMachineFacts({ probe: opts.probe !== false, test: spec.test, signal: interrupts.signal });
    say(chalk.dim(`${printable(describeWakeup(machine))}\n`));
    const { log, blockLog } = begin({ environment, pinning: pinning.applied, design: describeDesign(spec), machine });
    const live = previous.filter((r) => r.status !== 'superseded');

    say(`sweep ${printable(describeSpec(spec))}\n`);
    // the server's listen backlog holds the most connections a trial opens at once; somaxconn may cap it
    const workload = getWorkload(spec.workload);
    const connections = Math.max(...spec.depths.map((depth) => connectionsAt(workload, depth)));
    const backlog = backlogWarning({ connections, somaxconn: readSomaxconn(), flag: `--depths ${Math.max(...spec.depths)}` });
    if (backlog) say(chalk.yellow(`warning: ${printable(backlog)}\n`));
    if (executables.nginx) say(`nginx: ${printable(executables.nginx.path)} (${printable(executables.nginx.version)}; from ${executables.nginx.from})\n`);
    if (executables.ip) say(`ip: ${printable(executables.ip.path)} (iproute2 ${printable(executables.ip.version)}): the server in a network namespace${spec.portProxy ? ', TCP through a port proxy' : ', TCP over the bridge'}\n`);
    say(`node: ${printable(describeNodes(nodes))}${nodes.length > 1 ? `; ${nodes[0].version} is the baseline` : ''}\n`);
    const versions = nodes.map((n) => n.version);
    const execPathOf = (/** @type {string | undefined} */ version) => nodes.find((n) => n.version === version)?.path ?? nodes[0].path;
    if (pinning.note) say(chalk.yellow(`note: ${printable(pinning.note)}\n`));
    say(`results: ${printable(resolve(dir))}${request.resume ? ` (resuming: ${live.length} trial rows already there)` : ''}\n`);

    const progress = createProgress({ stream: stderr, quiet: quiet || opts.progress === false, chalk, workload: spec.workload, nodes: nodes.length > 1 });
    /** fixture.json: what runs now, for a --resume after a kill that took nginx's guard too */
    const record = recordSession(dir, (text) => progress.note(`note: ${text}`));
    let result;
    try {
      result = interrupts.signal.aborted ? { rows: [], interrupted: true, planned: planTrials({ ...spec, nodes: versions }).reduce((n, job) => n + job.transports.length, 0), extra: 0, timeUp: false } : await runSweep(spec, {
        nodes: versions,
        log,
        blockLog,
        previous: live,
        signal: interrupts.signal,
        startServer: async (version) => {
          const fixture = await startFixture(workload, { greeting: spec.greeting, noDelay: spec.noDelay, prefix: pinning.server, nginx: executables.nginx?.path, keepalive: spec.keepalive, configDir: resolve(dir), connections, configName: versions.length > 1 ? `nginx-${version}.conf` : undefined, execPath: execPathOf(version), netns: executables.ip?.path ?? null, portProxy: spec.portProxy, session: record });
          servers.add(fixture);
          if (interrupts.hurried()) fixture.kill();
          progress.note(fixture.describe, { dim: true });
          return fixture;
        },
        warmServer: async (s, version) => {
          // its result is not recorded; a server that cannot echo fails the first measured trial instead
          const [first] = planTrials({ ...spec, nodes: [version] });
          const warm = { ...trialSpec(spec, { ...first, transports: spec.transports }, s), measure: { ms: SERVER_WARMUP_MS }, warmup: { ms: 0 }, placement: pinning.placement };
          await runTrialProcess(warm, { prefix: pinning.client, execPath: execPathOf(version), limitMs: spec.trialTimeoutMs, signal: interrupts.signal }).catch(() => undefined); // rejects only on a signal, which the sweep sees next
        },
        runTrial: async (trialSpec, fixture) => {
          const mark = fixture.nginxLog?.mark();
          const result = await runTrialProcess({ ...trialSpec, placement: pinning.placement }, { server: fixture, prefix: pinning.client, execPath: execPathOf(trialSpec.node_version), limitMs: spec.trialTimeoutMs, signal: interrupts.signal });
          return withNginxWords(result, fixture, mark);
        },
        onStart: progress.start,
        onEnd: progress.end,
        onNote: progress.note,
        onReplace: recordReplacement,
      });
    } finally {
      progress.stop();
    }

    const rows = [...live, ...result.rows];
    // summarised from trials.csv as it reads back (its numbers as written), as `udsvstcp report DIR` does:
    // summary.csv, the report and --json then say what report says of this directory, to the digit
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

    say(`\n${toSummaryText(summary, { precision: spec.precision })}`);
    for (const warning of [...clientWarnings(rows), ...counterWarnings(rows)]) say(chalk.yellow(`warning: ${printable(warning)}\n`));
    say(`\n${rows.length} trial rows recorded (${result.planned} planned${result.extra ? ` + ${result.extra} added for the precision` : ''})${failed ? chalk.red(`, ${failed} failed (status=error in trials.csv; --resume DIR --retry-failed measures them again)`) : ''}\n`);
    for (const file of [FILES.trials, FILES.blocks, FILES.summary, FILES.wide, FILES.meta]) say(`  ${printable(join(resolve(dir), file))}\n`);
    const report = await reportSweep(dir, { stderr, chalk, quiet, allowShared: request.allowShared, summary });
    // data on stdout, whatever --quiet says: the summary as JSON, or where the results are
    stdout.write(opts.json
      ? reportJson(dir, report ?? { findings: { status: result.interrupted ? 'interrupted' : 'complete', trials: { recorded: rows.length, ok: rows.length - failed, failed, planned: result.planned }, sections: [], versions: [], warnings: ['the report could not be made (see stderr)'], machineWarnings: [], machineNotes: [], summary, centre: 'geometric mean', meta: null }, files: [] })
      : `${resolve(dir)}\n`);
    const code = interrupts.exitCode();
    if (code !== null) {
      const what = result.interrupted ? 'Resume with' : 'Every trial was measured before it; the files are complete. Rewrite the summary with';
      stderr.write(`interrupted (${interrupts.received()}): what was measured is kept. ${what}:\n  ${printable(resume)}\n`);
      return code;
    }
    return failed ? 1 : 0;
  }
}
