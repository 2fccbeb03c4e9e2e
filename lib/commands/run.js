/**
 * `udsvstcp run`: trials against a given echo server or one started in a
 * child process. With both transports, each trial alternates blocks between
 * a TCP and a UDS connection (A B B A …), and the order that opens the
 * sequence alternates trial by trial.
 */
import { describeEnvironment, collectEnvironment } from '../environment.js';
import { batchMeansInterval, blockPairLogRatios, pairedLogRatios, ratioInterval } from '../ratios.js';
import { toJsonLine } from '../report/json.js';
import { toComparison, toTable } from '../report/table.js';
import { spawnServer } from '../server-process.js';
import { runTrial } from '../trial.js';
import { describeTarget } from '../transport.js';
import { formatSize } from '../units.js';

/**
 * @param {import('../options.js').RunOptions} options validated
 * @param {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream, chalk: import('chalk').ChalkInstance }} io
 * @returns {Promise<number>} exit code
 */
export async function run(options, { stdout, stderr, chalk }) {
  const server = options.targets ? undefined : await spawnServer({ greeting: options.greeting, noDelay: options.noDelay });
  const targets = options.targets ?? {
    tcp: { transport: /** @type {const} */ ('tcp'), ...(/** @type {NonNullable<typeof server>} */ (server).tcp) },
    uds: { transport: /** @type {const} */ ('uds'), path: /** @type {NonNullable<typeof server>} */ (server).uds.path },
  };
  const amount = (/** @type {import('../workloads/workload.js').Amount} */ a) => ('packets' in a ? `${a.packets} packets` : `${a.ms} ms`);
  stderr.write(chalk.dim(`${describeEnvironment(collectEnvironment())}\n`));
  stderr.write(`echo ${formatSize(options.size)} × depth ${options.depth}, ${amount(options.measure)} per transport after ${amount(options.warmup)} warmup${options.transports.length > 1 ? ', in alternating blocks' : ''}, seed ${options.seed}, TCP noDelay ${options.noDelay}\n`);
  stderr.write(`${options.transports.map((t) => describeTarget(/** @type {import('../transport.js').Target} */ (targets[t]))).join(', ')}${server ? ` (server pid ${server.pid})` : ' (server not ours: no server CPU)'}\n`);

  /** @type {Record<string, any>[]} */
  const rows = [];
  /** @type {import('../trial.js').BlockRow[][]} */
  const blocksByRun = [];
  try {
    for (let round = 0; round < options.runs; round++) {
      // the transport that opens A B B A … alternates run by run
      const order = round % 2 === 0 ? options.transports : [...options.transports].reverse();
      const result = await runTrial({
        workload: 'echo',
        targets: order.map((t) => /** @type {import('../transport.js').Target} */ (targets[t])),
        size: options.size,
        depth: options.depth,
        measure: options.measure,
        warmup: options.warmup,
        seed: options.seed,
        noDelay: options.noDelay,
        timeoutMs: options.timeoutMs,
        greeting: options.greeting,
      }, { probe: server });
      blocksByRun.push(result.blocks);
      for (const record of result.records) {
        rows.push({ run: round, ...record });
        if (options.json) stdout.write(toJsonLine(record));
      }
    }
  } finally {
    await server?.stop();
  }
  stderr.write(`\n${toTable(/** @type {any} */ (rows), { chalk })}`);
  const ratio = options.runs > 1
    ? { interval: ratioInterval(pairedLogRatios(rows, 'msgs_per_s')), basis: `${options.runs} runs` }
    : { interval: batchMeansInterval(blockPairLogRatios(blocksByRun[0])), basis: 'the block pairs of one process (batch means); --runs 3 or a sweep for an interval across processes' };
  const comparison = toComparison(/** @type {any} */ (rows), { chalk, ratio: ratio.interval.logs.length ? ratio : undefined });
  if (comparison) stderr.write(`\n${comparison}`);
  const failed = rows.filter((r) => r.status !== 'ok');
  for (const r of failed) stderr.write(`udsvstcp: ${r.transport} trial failed: ${r.error}\n`);
  return failed.length ? 1 : 0;
}
