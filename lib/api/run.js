/**
 * `run()`: trials of one workload against a given server or a fixture started here, as `udsvstcp run` measures them,
 * the order opening each trial's alternating blocks reversed trial by trial.
 */
import { missedRate } from '../workloads/rate.js';
import { describeEnvironment, collectEnvironment, readNetLimits } from '../core/environment.js';
import { backlogWarning } from '../core/backlog.js';
import { describeNodes } from '../core/node-executables.js';
import { formatSize } from '../core/units.js';
import { startFixture, withNginxWords } from '../fixture/fixture.js';
import { endLeftovers } from '../fixture/leftovers.js';
import { checkTempDir } from '../fixture/socket-file.js';
import { describeTarget } from '../client/transport.js';
import { runLanes } from '../trial/lanes.js';
import { BASELINE, channelTargets } from '../transports/index.js';
import { connectionsAt, sizeLabel } from '../workloads/index.js';
import { collectMachineFacts } from '../machine/wakeup-probe.js';
import { resolveRunOptions } from '../options/validate.js';
import { checkOptionKeys, optionKeys } from '../options/settings.js';
import { batchMeansInterval, blockPairLogRatios, pairedLogRatios, ratioInterval } from '../stats/ratios.js';
import { clientWarnings, counterWarnings, laneWarnings } from '../stats/summarize.js';
import { trialSettings } from '../sweep/orchestrator.js';
import { resolvePinning } from '../sweep/pinning.js';
import { showAmount, warmupWords } from '../sweep/spec.js';
import { describeServers, findServers } from '../sweep/request.js';
import { describeWakeup, wakeupFinding } from '../report/machine.js';

/**
 * @typedef {Record<string, string | number | boolean | undefined>} RunOptions `udsvstcp run`'s flags, camelCased
 *   (the settings table, lib/options/settings.js, lists them): values as typed on the command line ('1KiB', '500ms') or numbers
 */

/**
 * @typedef {{ type: 'note', text: string }
 *   | { type: 'info', text: string, dim?: boolean }
 *   | { type: 'warning', text: string }
 *   | { type: 'trial-end', run: number, records: import('../trial/record.js').TrialRecord[] }} RunEvent
 */

/**
 * @typedef {object} RunResult
 * @property {Record<string, any>[]} rows one record per transport per trial, with its `run`
 * @property {Record<string, { interval: ReturnType<typeof ratioInterval>, basis: string }>} ratios each transport against TCP
 * @property {string[]} warnings
 * @property {ReturnType<typeof wakeupFinding> | null} wakeup at depth 1 after the probe: the wake-up share of a round trip
 * @property {boolean} interrupted the signal stopped it before every trial ran
 * @property {number | null} serverWorkUs the server's own work per request (--server-work), µs; null: none
 */

const KEYS = optionKeys('run');

/**
 * @param {RunOptions} [raw]
 * @param {{ onProgress?: (event: RunEvent) => void, signal?: AbortSignal }} [hooks]
 * @returns {Promise<RunResult>}
 */
export async function run(raw = {}, { onProgress = () => {}, signal } = {}) {
  checkOptionKeys('run', raw, KEYS, KEYS.filter((k) => k !== 'json')); // json is the command's: accepted, not listed
  const options = resolveRunOptions(raw);
  const { workload } = options;
  const info = (/** @type {string} */ text, dim = false) => onProgress({ type: 'info', text, dim });
  const note = (/** @type {string} */ text) => onProgress({ type: 'note', text });
  const warn = (/** @type {string} */ text) => onProgress({ type: 'warning', text });
  if (!options.targets) checkTempDir(); // the server's socket file goes there
  // the servers' executables come from --nginx, --redis-server, --postgres-bin or PATH; say which
  const executables = options.targets ? {} : findServers(workload, { nginx: options.nginx, redisServer: options.redisServer, postgresBin: options.postgresBin ?? undefined });
  // before the server starts, so that the probe's processes have the machine to themselves
  const machine = options.probe ? await collectMachineFacts({ probe: true, signal }) : null;
  if (machine) info(describeWakeup(machine), true);
  const node = options.node; // --node: the server and the client trial run on it
  if (options.netns) {
    const { strays } = await endLeftovers({ ip: options.netns });
    if (strays.length) note(`removed what a killed udsvstcp left: ${strays.join(', ')}`);
  }
  const pinning = resolvePinning(options.pin);
  if (pinning.note) note(pinning.note);
  // a server given by --tcp/--uds runs where its owner put it: only the client is placed
  const pinned = options.targets && pinning.placement ? `${pinning.placement.mode}: client cpu ${pinning.placement.client} (the server is not ours: not placed)` : pinning.applied;
  const connections = connectionsAt(workload, options.depth, options);
  const backlog = options.targets ? null : backlogWarning({ connections, somaxconn: readNetLimits().somaxconn, flag: workload.options.includes('connections') ? `--connections ${connections}` : workload.options.includes('clients') ? `--clients ${options.clients}` : `${workload.axes.depth.flag} ${options.depth}` });
  const fixture = options.targets ? undefined : await startFixture(workload, { greeting: options.greeting, noDelay: options.noDelay, prefix: pinning.server, nginx: executables.nginx?.path, redisServer: executables['redis-server']?.path, postgresBin: executables.postgres?.path, postgresTables: options.size === 1, keepalive: options.keepalive, connections, execPath: node?.path, netns: options.netns, portProxy: options.portProxy, work: options.serverWorkUs === null && options.serverDelayMs === null ? undefined : { us: options.serverWorkUs ?? 0, delayMs: options.serverDelayMs ?? 0, packetBytes: options.size } });
  // each trial runs in a child process (on --node's Node), placed as --pin says, within the times asked for plus ten
  // minutes (an hour and ten when counted): the blocks' floors may take longer than --duration, and say so
  const { measure, warmup, transports } = options;
  const limitMs = ('ms' in measure && 'ms' in warmup ? (measure.ms + warmup.ms) * transports.length : 3_000_000) + 600_000;
  try {
    // a message transport's echo is the trial's own, whoever serves the others
    const targets = { ...channelTargets(), ...(options.targets ?? /** @type {NonNullable<typeof fixture>} */ (fixture).targets) };
    // a size axis in the workload's own words (postgres: 1 lookup) needs no label before it; bytes do (packet size 64 B)
    const size = workload.axes.size.format ? sizeLabel(workload.name, options.size) : `${workload.axes.size.label} ${formatSize(options.size)}`;
    info(describeEnvironment(collectEnvironment()), true);
    if (backlog) warn(backlog);
    for (const line of describeServers(executables, workload)) info(line);
    if (node) info(`node: ${describeNodes([node])} runs ${fixture ? 'the server and ' : ''}the client, in a lane process per transport${fixture ? '' : ' (the server is not ours)'}`);
    info(`pin ${pinned}${transports.length > 1 ? ', each lane in a process of its own' : ''}`);
    info(`${workload.name} ${size} × ${workload.axes.depth.label} ${options.depth}, ${showAmount(measure, workload)} per transport ${warmupWords(warmup, workload)}${transports.length > 1 ? ', in alternating blocks' : ''}${workload.options.includes('pipelining') ? `, pipelining ${options.pipelining}` : ''}${workload.options.includes('clients') ? `, ${options.clients} client${options.clients === 1 ? '' : 's'}` : ''}${workload.options.includes('batch') ? `, ${options.batch === 1 ? 'no pipeline()' : `pipelines of ${options.batch}`}` : ''}${workload.options.includes('connections') ? `, ${connections} connections taking turns` : ''}${workload.options.includes('arrivals') ? `, ${options.arrivals} arrivals` : ''}${workload.fixture.proxy ? `, nginx upstream ${options.keepalive ? 'keep-alive' : 'a new connection per request'}` : ''}${options.serverWorkUs === null ? '' : `, the server spinning ${options.serverWorkUs} µs per ${workload.fixture.server === 'http' ? 'request' : 'packet'} (--server-work)`}${options.serverDelayMs === null ? '' : `, the server waiting ${options.serverDelayMs} ms before each ${workload.fixture.server === 'http' ? 'answer' : 'echo'} (--server-delay)`}, seed ${options.seed}, TCP noDelay ${options.noDelay}`);
    info(`${transports.map((t) => describeTarget(/** @type {import('../client/transport.js').Target} */ (targets[t]))).join(', ')}${fixture ? ` (${fixture.describe})` : ' (server not ours: no server CPU)'}`);

    /** @type {Record<string, any>[]} */
    const rows = [];
    /** @type {Record<string, any>[][]} */
    const blocksByRun = [];
    let interrupted = false;
    for (let round = 0; round < options.runs && !interrupted; round++) {
      // the order that opens A B B A … (A B C C B A …) is reversed run by run
      const order = round % 2 === 0 ? transports : [...transports].reverse();
      const mark = fixture?.nginxLog?.mark();
      /** @type {import('../trial/trial.js').TrialSpec} */
      const spec = {
        ...trialSettings(options),
        workload: workload.name,
        targets: order.map((t) => /** @type {import('../client/transport.js').Target} */ (targets[t])),
        size: options.size,
        depth: options.depth,
        maxMs: limitMs,
        placement: pinning.placement,
        ...(node ? { node_version: node.version } : {}),
      };
      // a trial says at once what --duration cannot hold (lib/client/block-plan.js)
      const measured = await runLanes(spec, { server: fixture, prefix: pinning.client, execPath: node?.path, limitMs, warn, signal }).catch((error) => {
        if (signal?.aborted) return null;
        throw error;
      });
      if (measured === null || signal?.aborted) {
        interrupted = true;
        break;
      }
      const result = withNginxWords(fixture?.reference ? await fixture.reference(measured, { prefix: pinning.client, signal, onError: (text) => warn(`pgbench gave no figures (pgbench_tps empty): ${text}`) }) : measured, fixture, mark);
      blocksByRun.push(result.blocks);
      rows.push(...result.records.map((record) => ({ run: round, ...record })));
      onProgress({ type: 'trial-end', run: round, records: result.records });
    }
    const warnings = [...clientWarnings(rows, 'the client_elu of each --json record'), ...counterWarnings(rows), ...laneWarnings(rows)];
    // at depth 1: how much of each transport's mean round trip is waking an idle CPU (none paid with --pin same)
    const rtts = transports.map((transport) => {
      const mine = rows.filter((r) => r.transport === transport && r.status === 'ok' && typeof r.rtt_mean_us === 'number');
      return { transport, size_bytes: options.size, rtt_us: mine.reduce((a, r) => a + r.rtt_mean_us, 0) / mine.length };
    });
    const wakeup = machine && options.depth === 1 ? wakeupFinding(rtts, machine, pinned) : null;
    return { rows, ratios: ratiosToTcp(rows, blocksByRun, options), warnings, wakeup, interrupted, serverWorkUs: options.serverWorkUs };
  } finally {
    await fixture?.stop();
  }
}

/**
 * Each transport against TCP, over runs or over the block rounds of the one run; none where nothing pairs.
 * @param {Record<string, any>[]} rows
 * @param {Record<string, any>[][]} blocksByRun
 * @param {import('../options/validate.js').RunOptions} options
 */
function ratiosToTcp(rows, blocksByRun, { workload, transports, runs }) {
  const kept = rows.filter((r) => !missedRate(r)); // in open loop, as a sweep's summary: runs that kept their rate
  return Object.fromEntries(transports.filter((t) => t !== BASELINE).flatMap((t) => {
    const logs = runs > 1 ? pairedLogRatios(kept, workload.primary, t) : blocksByRun.length ? blockPairLogRatios(blocksByRun[0], workload.primary, t) : [];
    if (logs.length === 0) return [];
    return [[t, runs > 1
      ? { interval: ratioInterval(logs), basis: `${runs} runs` }
      : { interval: batchMeansInterval(logs), basis: `the block ${transports.length > 2 ? 'rounds' : 'pairs'} of one process (batch means); --runs 3 or a sweep for an interval across processes` }]];
  }));
}
