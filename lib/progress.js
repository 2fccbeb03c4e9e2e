/**
 * Sweep progress on stderr: a bar (cli-progress) on a terminal, one plain
 * line per trial otherwise, nothing when quiet.
 */
import cliProgress from 'cli-progress';
import { formatSize } from './units.js';

/**
 * @param {{ stream: NodeJS.WritableStream & { isTTY?: boolean }, quiet: boolean, chalk: import('chalk').ChalkInstance }} options
 */
export function createProgress({ stream, quiet, chalk }) {
  const label = (/** @type {import('./sweep/schedule.js').Job} */ job) => `run ${job.run} #${job.order} ${job.transport} ${formatSize(job.size)} depth ${job.depth}`;
  if (quiet) return { start() {}, end() {}, note() {}, stop() {} };
  if (stream.isTTY) {
    /** @type {cliProgress.SingleBar | undefined} */
    let bar;
    return {
      start(/** @type {import('./sweep/schedule.js').Job} */ job, /** @type {number} */ index, /** @type {number} */ total) {
        if (!bar) {
          bar = new cliProgress.SingleBar({ stream, format: '{bar} {value}/{total} trials | {job} | {duration_formatted} elapsed | eta {eta_formatted}', hideCursor: true, etaBuffer: 20 }, cliProgress.Presets.shades_classic);
          bar.start(total, index, { job: label(job) });
        }
        bar.update(index, { job: label(job) });
      },
      end(/** @type {any} */ _job, /** @type {Record<string, any>} */ row, /** @type {number} */ index) {
        bar?.update(index + 1);
        if (row.status !== 'ok') stream.write(`\n${chalk.red('error')}: ${label(_job)}: ${row.error}\n`);
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
    end(/** @type {import('./sweep/schedule.js').Job} */ job, /** @type {Record<string, any>} */ row, /** @type {number} */ index, /** @type {number} */ total) {
      const what = row.status === 'ok' ? `${Math.round(row.msgs_per_s)} msgs/s, p50 ${row.rtt_p50_us.toFixed(1)} µs` : `error: ${row.error}`;
      stream.write(`[${index + 1}/${total}] ${label(job)}: ${what}\n`);
    },
    note(/** @type {string} */ message) {
      stream.write(`${message}\n`);
    },
    stop() {},
  };
}
