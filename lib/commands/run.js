/**
 * `udsvstcp run`: one trial per transport (times --runs), interleaved,
 * against a given echo server or one started in a child process.
 */
import { describeEnvironment, collectEnvironment } from '../environment.js';
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
  const amount = (/** @type {import('../workloads/echo.js').Amount} */ a) => ('packets' in a ? `${a.packets} packets` : `${a.ms} ms`);
  stderr.write(chalk.dim(`${describeEnvironment(collectEnvironment())}\n`));
  stderr.write(`echo ${formatSize(options.size)} × depth ${options.depth}, ${amount(options.measure)} after ${amount(options.warmup)} warmup, seed ${options.seed}, TCP noDelay ${options.noDelay}\n`);
  stderr.write(`${options.transports.map((t) => describeTarget(/** @type {import('../transport.js').Target} */ (targets[t]))).join(', ')}${server ? ` (server pid ${server.pid})` : ' (server not ours: no server CPU)'}\n`);

  /** @type {import('../record.js').TrialRecord[]} */
  const records = [];
  try {
    for (let round = 0; round < options.runs; round++) {
      // alternate the order run by run (ABBA…) so drift hits both transports alike
      const order = round % 2 === 0 ? options.transports : [...options.transports].reverse();
      for (const transport of order) {
        const record = await runTrial({
          workload: 'echo',
          target: /** @type {import('../transport.js').Target} */ (targets[transport]),
          size: options.size,
          depth: options.depth,
          measure: options.measure,
          warmup: options.warmup,
          seed: options.seed,
          noDelay: options.noDelay,
          timeoutMs: options.timeoutMs,
          greeting: options.greeting,
        }, { probe: server });
        records.push(record);
        if (options.json) stdout.write(toJsonLine(record));
      }
    }
  } finally {
    await server?.stop();
  }
  stderr.write(`\n${toTable(records, { chalk })}`);
  const comparison = toComparison(records, { chalk });
  if (comparison) stderr.write(`\n${comparison}`);
  const failed = records.filter((r) => r.status !== 'ok');
  for (const r of failed) stderr.write(`udsvstcp: ${r.transport} trial failed: ${r.error}\n`);
  return failed.length ? 1 : 0;
}
