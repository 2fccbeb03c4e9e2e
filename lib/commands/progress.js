/**
 * Sweep progress on stderr: a bar (cli-progress, loaded only then) on a terminal, a plain line per trial otherwise;
 * when quiet (--quiet, --no-progress) only a line per failed trial, saying why. Errors and notes may quote paths: they
 * are printable().
 */
import { BASELINE, labelOf } from '../transports/index.js';
import { createRequire } from 'node:module';
import { printable } from '../core/text.js';
import { NOT_MEASURED } from '../trial/record.js';
import { depthLabel, sizeLabel, workloadOf } from '../workloads/index.js';

/**
 * @param {{ stream: NodeJS.WritableStream & { isTTY?: boolean }, quiet: boolean, chalk: import('chalk').ChalkInstance, workload?: string, nodes?: boolean }} options nodes: name each trial's Node version (a sweep of several)
 */
export function createProgress({ stream, quiet, chalk, workload, nodes = false }) {
  const w = workloadOf(workload);
  const unit = w.summary[w.primary].unit;
  const show = (/** @type {number} */ v) => (v >= 100 ? String(Math.round(v)) : String(+v.toPrecision(3)));
  const label = (/** @type {import('../sweep/schedule.js').Job} */ job) => `run ${job.run} #${job.order} ${nodes ? `node ${job.node} ` : ''}${sizeLabel(workload, job.size)} ${depthLabel(workload, job.depth)} ${job.transports.join('+')}`;
  /** @param {Record<string, any>[]} rows */
  const figures = (rows) => {
    const failed = rows.find((r) => r.status !== 'ok');
    if (failed) return `error: ${printable(failed.error)}`;
    const text = rows.map((r) => `${r.transport} ${show(r[w.primary])} ${unit}`).join(', ');
    const tcp = rows.find((r) => r.transport === BASELINE);
    const others = rows.filter((r) => r.transport !== BASELINE);
    if (!tcp || !others.length) return text;
    return `${text} (${others.map((r) => `${labelOf(r.transport)} ×${(r[w.primary] / tcp[w.primary]).toFixed(2)}`).join(', ')}, ${others[0].blocks} block${others[0].blocks === 1 ? '' : 's'} each)`;
  };
  /** A failed trial's line: which trial and why (the first failed row's own cause, not a lane's 'not measured'). @param {import('../sweep/schedule.js').Job} job @param {Record<string, any>[]} rows */
  const failure = (job, rows) => {
    const bad = rows.filter((r) => r.status !== 'ok');
    const failed = bad.find((r) => !String(r.error).startsWith(NOT_MEASURED)) ?? bad[0];
    return failed ? `${chalk.red('error')}: ${label(job)}: ${printable(failed.error)}\n` : '';
  };
  /** A status line; on a terminal below the bar. @param {string} lead */
  const note = (lead) => (/** @type {string} */ message, { dim = false } = {}) => { stream.write(`${lead}${dim ? chalk.dim(printable(message)) : printable(message)}\n`); };
  if (quiet) return { start() {}, end: (/** @type {import('../sweep/schedule.js').Job} */ job, /** @type {Record<string, any>[]} */ rows) => { stream.write(failure(job, rows)); }, note() {}, stop() {} };
  if (stream.isTTY) {
    /** @type {import('cli-progress').SingleBar | undefined} */
    let bar;
    return {
      start(/** @type {import('../sweep/schedule.js').Job} */ job, /** @type {number} */ index, /** @type {number} */ total) {
        if (bar && index === 0) {
          // a new list of trials (a precision round): a new bar for it
          bar.stop();
          bar = undefined;
        }
        if (!bar) {
          const cliProgress = /** @type {typeof import('cli-progress')} */ (createRequire(import.meta.url)('cli-progress'));
          bar = new cliProgress.SingleBar({ stream, format: '{bar} {value}/{total} trials | {job} | {duration_formatted} elapsed | eta {eta_formatted}', hideCursor: true, etaBuffer: 20 }, cliProgress.Presets.shades_classic);
          bar.start(total, index, { job: label(job) });
        }
        bar.update(index, { job: label(job) });
      },
      end(/** @type {any} */ _job, /** @type {Record<string, any>[]} */ rows, /** @type {number} */ index) {
        bar?.update(index + 1);
        const line = failure(_job, rows);
        if (line) stream.write(`\n${line}`);
      },
      note: note('\n'),
      stop() {
        bar?.stop();
      },
    };
  }
  return {
    start() {},
    end(/** @type {import('../sweep/schedule.js').Job} */ job, /** @type {Record<string, any>[]} */ rows, /** @type {number} */ index, /** @type {number} */ total) {
      stream.write(`[${index + 1}/${total}] ${label(job)}: ${figures(rows)}\n`);
    },
    note: note(''),
    stop() {},
  };
}
