/**
 * `udsvstcp run`: trials of one workload against a given server or a fixture
 * started here (a server child process, and nginx for the proxy workload).
 * With several transports, each trial alternates blocks between them
 * (A B B A …, or A B C C B A … with three), and the order that opens the
 * sequence is reversed trial by trial.
 */
import { describeEnvironment, collectEnvironment } from '../core/environment.js';
import { backlogWarning, readSomaxconn } from '../core/backlog.js';
import { startFixture, withNginxWords } from '../fixture/fixture.js';
import { describeNginx, findNginx } from '../fixture/nginx.js';
import { endLeftovers } from '../fixture/leftovers.js';
import { checkTempDir } from '../fixture/socket-file.js';
import { batchMeansInterval, blockPairLogRatios, pairedLogRatios, ratioInterval } from '../stats/ratios.js';
import { toJsonLine } from '../results/json.js';
import { clientWarnings, counterWarnings, laneWarnings } from '../stats/summarize.js';
import { toComparison, toTable } from '../report/table.js';
import { runTrialProcess } from '../trial/trial-process.js';
import { describeNodes } from '../core/node-executables.js';
import { BASELINE, channelTargets } from '../transports/index.js';
import { connectionsAt } from '../workloads/index.js';
import { describeTarget } from '../client/transport.js';
import { formatSize } from '../core/units.js';
import { printable } from '../core/text.js';
import { collectMachineFacts } from '../machine/facts.js';
import { describeWakeup, wakeupFinding } from '../report/machine.js';
import { resolvePinning } from '../sweep/pinning.js';

/**
 * @param {import('../options/validate.js').RunOptions} options validated
 * @param {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream, chalk: import('chalk').ChalkInstance }} io
 * @returns {Promise<number>} exit code
 */
export async function run(options, { stdout, stderr, chalk }) {
  const { workload } = options;
  if (!options.targets) checkTempDir(); // the server's socket file goes there
  // the nginx that runs comes from --nginx or PATH; say which
  const nginx = !options.targets && workload.fixture.proxy ? describeNginx(findNginx(options.nginx)) : undefined;
  // before the server starts, so that the probe's processes have the machine to themselves
  const machine = options.probe ? await collectMachineFacts({ probe: true }) : null;
  if (machine) stderr.write(chalk.dim(`${printable(describeWakeup(machine))}\n`));
  const node = options.node; // --node: the server and the client trial run on it
  if (options.netns) {
    const { strays } = await endLeftovers({ ip: options.netns });
    if (strays.length) stderr.write(chalk.yellow(`note: removed what a killed udsvstcp left: ${printable(strays.join(', '))}\n`));
  }
  const pinning = resolvePinning(options.pin);
  if (pinning.note) stderr.write(chalk.yellow(`note: ${printable(pinning.note)}\n`));
  // the server's listen backlog holds the connections a trial opens at once; somaxconn may cap it
  const connections = connectionsAt(workload, options.depth);
  const backlog = options.targets ? null : backlogWarning({ connections, somaxconn: readSomaxconn(), flag: `${workload.axes.depth.flag} ${options.depth}` });
  const fixture = options.targets ? undefined : await startFixture(workload, { greeting: options.greeting, noDelay: options.noDelay, prefix: pinning.server, nginx: nginx?.path, keepalive: options.keepalive, connections, execPath: node?.path, netns: options.netns, portProxy: options.portProxy });
  // each trial runs in a child process (on --node's Node), placed as --pin says, within the times asked for plus ten
  // minutes (an hour and ten when counted): the blocks' floors may take longer than --duration, and say so
  const { measure, warmup } = options;
  const limitMs = ('ms' in measure && 'ms' in warmup ? (measure.ms + warmup.ms) * options.transports.length : 3_000_000) + 600_000;
  try {
    // a message transport's echo is the trial's own, whoever serves the others
    const targets = { ...channelTargets(), ...(options.targets ?? /** @type {NonNullable<typeof fixture>} */ (fixture).targets) };
    const amount = (/** @type {import('../workloads/workload.js').Amount} */ a) => ('packets' in a ? `${a.packets} ${workload.columns[0]}` : `${a.ms} ms`);
    stderr.write(chalk.dim(`${printable(describeEnvironment(collectEnvironment()))}\n`));
    if (backlog) stderr.write(chalk.yellow(`warning: ${printable(backlog)}\n`));
    if (nginx) stderr.write(`nginx: ${printable(nginx.path)} (${printable(nginx.version)}; from ${options.nginx === undefined ? 'PATH' : '--nginx'})\n`);
    if (node) stderr.write(`node: ${printable(describeNodes([node]))} runs ${fixture ? 'the server and ' : ''}the client, in a trial process of its own${fixture ? '' : ' (the server is not ours)'}\n`);
    stderr.write(`pin ${printable(pinning.applied)}${options.transports.length > 1 ? ', each lane in a process of its own' : ''}\n`);
    stderr.write(`${workload.name} ${workload.axes.size.label} ${formatSize(options.size)} × ${workload.axes.depth.label} ${options.depth}, ${amount(options.measure)} per transport after ${amount(options.warmup)} warmup${options.transports.length > 1 ? ', in alternating blocks' : ''}${workload.options.includes('pipelining') ? `, pipelining ${options.pipelining}` : ''}${workload.fixture.proxy ? `, nginx upstream ${options.keepalive ? 'keep-alive' : 'a new connection per request'}` : ''}, seed ${options.seed}, TCP noDelay ${options.noDelay}\n`);
    stderr.write(`${printable(options.transports.map((t) => describeTarget(/** @type {import('../client/transport.js').Target} */ (targets[t]))).join(', '))}${fixture ? ` (${printable(fixture.describe)})` : ' (server not ours: no server CPU)'}\n`);

    /** @type {Record<string, any>[]} */
    const rows = [];
    /** @type {Record<string, any>[][]} */
    const blocksByRun = [];
    for (let round = 0; round < options.runs; round++) {
      // the order that opens A B B A … (A B C C B A …) is reversed run by run
      const order = round % 2 === 0 ? options.transports : [...options.transports].reverse();
      const mark = fixture?.nginxLog?.mark();
      /** @type {import('../trial/trial.js').TrialSpec} */
      const spec = {
        workload: workload.name,
        targets: order.map((t) => /** @type {import('../client/transport.js').Target} */ (targets[t])),
        size: options.size,
        depth: options.depth,
        measure: options.measure,
        warmup: options.warmup,
        seed: options.seed,
        noDelay: options.noDelay,
        timeoutMs: options.timeoutMs,
        greeting: options.greeting,
        pipelining: options.pipelining,
        keepalive: options.keepalive,
        maxMs: limitMs,
        placement: pinning.placement,
        ...(node ? { node_version: node.version } : {}),
      };
      // a trial says at once what --duration cannot hold (lib/client/block-plan.js)
      const warn = (/** @type {string} */ line) => stderr.write(chalk.yellow(`warning: ${printable(line)}\n`));
      const result = withNginxWords(await runTrialProcess(spec, { server: fixture, prefix: pinning.client, execPath: node?.path, limitMs, warn }), fixture, mark);
      blocksByRun.push(result.blocks);
      for (const record of result.records) {
        rows.push({ run: round, ...record });
        if (options.json) stdout.write(toJsonLine(record));
      }
    }
    stderr.write(`\n${toTable(/** @type {any} */ (rows), { chalk })}`);
    for (const warning of [...clientWarnings(rows, 'the client_elu of each --json record'), ...counterWarnings(rows), ...laneWarnings(rows)]) stderr.write(chalk.yellow(`warning: ${printable(warning)}\n`));
    // each transport against TCP: over runs, or over the block rounds of the one run; none where
    // nothing pairs (no TCP measured, or every TCP trial or every one of the transport's failed)
    const ratios = Object.fromEntries(options.transports.filter((t) => t !== BASELINE).flatMap((t) => {
      const logs = options.runs > 1 ? pairedLogRatios(rows, workload.primary, t) : blockPairLogRatios(blocksByRun[0], workload.primary, t);
      if (logs.length === 0) return [];
      return [[t, options.runs > 1
        ? { interval: ratioInterval(logs), basis: `${options.runs} runs` }
        : { interval: batchMeansInterval(logs), basis: `the block ${options.transports.length > 2 ? 'rounds' : 'pairs'} of one process (batch means); --runs 3 or a sweep for an interval across processes` }]];
    }));
    const comparison = toComparison(/** @type {any} */ (rows), { chalk, ratios });
    if (comparison) stderr.write(`\n${comparison}`);
    if (machine && options.depth === 1) {
      const rtts = options.transports.map((transport) => {
        const mine = rows.filter((r) => r.transport === transport && r.status === 'ok' && typeof r.rtt_mean_us === 'number');
        return { transport, size_bytes: options.size, rtt_us: mine.reduce((a, r) => a + r.rtt_mean_us, 0) / mine.length };
      });
      const { shares, warning, note } = wakeupFinding(rtts, machine, pinning.applied); // with both ends on one CPU (--pin same), no cross-CPU wake-up is paid
      if (shares.length) stderr.write(`wake-up share of the mean round trip: ${shares.map((s) => `${s.transport.toUpperCase()} ${Math.round(s.share * 100)} %`).join(', ')}\n`);
      if (warning) stderr.write(chalk.yellow(`warning: ${warning}\n`));
      if (note) stderr.write(chalk.dim(`note: ${note}\n`));
    }
    const failed = rows.filter((r) => r.status !== 'ok');
    for (const r of failed) stderr.write(`udsvstcp: ${r.transport} trial failed: ${printable(r.error)}\n`);
    return failed.length ? 1 : 0;
  } finally {
    await fixture?.stop();
  }
}
