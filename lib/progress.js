/**
 * Sweep progress on stderr: a bar (cli-progress) on a terminal, one plain
 * line per trial otherwise, nothing when quiet.
 */
import cliProgress from 'cli-progress';
import { formatSize } from './units.js';
import { WORKLOADS } from './workloads/index.js';

/**
 * @param {{ stream: NodeJS.WritableStream & { isTTY?: boolean }, quiet: boolean, chalk: import('chalk').ChalkInstance }} options
 */
export function createProgress({ stream, quiet, chalk }) {
  const label = (/** @type {import('./sweep/schedule.js').Job} */ job) => `run ${job.run} #${job.order} ${formatSize(job.size)} depth ${job.depth} ${job.transports.join('+')}`;
  /** @param {Record<string, any>[]} rows */
  const figures = (rows) => {
    const failed = rows.find((r) => r.status !== 'ok');
    if (failed) return `error: ${failed.error}`;
    const { primary, summary } = WORKLOADS[rows[0]?.workload] ?? WORKLOADS.echo; // the workload's primary figure: msgs/s, GB/s, conns/s, req/s
    const show = (/** @type {number} */ v) => (Math.abs(v) >= 100 ? String(Math.round(v)) : v.toPrecision(3));
    const text = rows.map((r) => `${r.transport} ${show(r[primary])} ${summary[primary].short}`).join(', ');
    const [tcp, uds] = ['tcp', 'uds'].map((t) => rows.find((r) => r.transport === t));
    return tcp && uds ? `${text} (UDS ×${(uds[primary] / tcp[primary]).toFixed(2)}, ${uds.blocks} blocks each)` : text;
  };
  if (quiet) return { start() {}, end() {}, note() {}, stop() {} };
  if (stream.isTTY) {
    /** @type {cliProgress.SingleBar | undefined} */
    let bar;
    return {
      start(/** @type {import('./sweep/schedule.js').Job} */ job, /** @type {number} */ index, /** @type {number} */ total) {
        if (bar && index === 0) {
          // a new list of trials (a precision round): a new bar for it
          bar.stop();
          bar = undefined;
        }
        if (!bar) {
          bar = new cliProgress.SingleBar({ stream, format: '{bar} {value}/{total} trials | {job} | {duration_formatted} elapsed | eta {eta_formatted}', hideCursor: true, etaBuffer: 20 }, cliProgress.Presets.shades_classic);
          bar.start(total, index, { job: label(job) });
        }
        bar.update(index, { job: label(job) });
      },
      end(/** @type {any} */ _job, /** @type {Record<string, any>[]} */ rows, /** @type {number} */ index) {
        bar?.update(index + 1);
        const failed = rows.find((r) => r.status !== 'ok');
        if (failed) stream.write(`\n${chalk.red('error')}: ${label(_job)}: ${failed.error}\n`);
      },
      note(/** @type {string} */ message) {
        stream.write(`\n${message}\n`);
      },
      stop() {
        bar?.stop();
      },
    };
  }
  return {
    start() {},
    end(/** @type {import('./sweep/schedule.js').Job} */ job, /** @type {Record<string, any>[]} */ rows, /** @type {number} */ index, /** @type {number} */ total) {
      stream.write(`[${index + 1}/${total}] ${label(job)}: ${figures(rows)}\n`);
    },
    note(/** @type {string} */ message) {
      stream.write(`${message}\n`);
    },
    stop() {},
  };
}
