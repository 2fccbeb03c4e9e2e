/**
 * `udsvstcp sweep`: sweep() (lib/api/sweep.js) with progress on stderr, the results directory or the summary document
 * on stdout, and an exit code. The first SIGINT, SIGTERM or SIGHUP aborts (the trial and the server stopped, what was
 * measured written); a second hurries (the server killed at once). No signal kills the process outright while the
 * handlers are installed, so the results directory is always left complete and resumable.
 */
import { printable } from '../core/text.js';
import { toJsonText } from '../results/json.js';
import { SPEC_FLAGS } from '../options/settings.js';
import { SWEEP_OPTIONS } from '../sweep/request.js';
import { sweepOutcome } from '../api/sweep.js';
import { chainOutcome } from '../api/chain.js';
import { createProgress } from './progress.js';
import { printSweepReport } from './report.js';

/** The signals that stop a sweep, with their numbers: the exit code is 128 + the first one's. */
const SIGNALS = /** @type {const} */ ({ SIGHUP: 1, SIGINT: 2, SIGTERM: 15 });

/**
 * @param {string | undefined} preset
 * @param {Record<string, any>} opts raw options from commander
 * @param {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream & { isTTY?: boolean }, chalk: import('chalk').ChalkInstance }} io
 */
export async function sweep(preset, opts, { stdout, stderr, chalk }) {
  const quiet = Boolean(opts.quiet);
  const say = (/** @type {string} */ text) => { if (!quiet) stderr.write(text); };
  /** @type {Record<string, unknown>} the library's options: commander's, without those for printing */
  const options = { preset };
  for (const key of [...SWEEP_OPTIONS, ...SPEC_FLAGS]) if (key !== 'preset' && opts[key] !== undefined) options[key] = opts[key];

  const abort = new AbortController();
  const hurry = new AbortController();
  /** @type {keyof typeof SIGNALS | null} */
  let received = null;
  const onSignal = (/** @type {keyof typeof SIGNALS} */ signal) => {
    // the terminal may be gone (SIGHUP): never let a write to it take the process down
    if (signal === 'SIGHUP') process.stderr.on('error', () => {});
    if (received === null) {
      received = signal;
      abort.abort();
      stderr.write(`\n${signal}: stopping; what was measured is kept (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again kills the server at once)\n`);
    } else {
      stderr.write(`${signal} again: stopping now (the server is killed); the results directory stays resumable\n`);
      hurry.abort();
    }
  };
  const signals = /** @type {(keyof typeof SIGNALS)[]} */ (Object.keys(SIGNALS));
  // installed before anything is created, and kept until the last file is written
  for (const signal of signals) process.on(signal, onSignal);
  /** @type {ReturnType<typeof createProgress> | undefined} made once the sweep says what it measures */
  let progress;
  /** @type {(event: import('../api/sweep.js').SweepEvent) => void} */
  const onProgress = (event) => {
    switch (event.type) {
      case 'note': return say(chalk.yellow(`note: ${printable(event.text)}\n`));
      case 'warning': return void stderr.write(chalk.yellow(`warning: ${printable(event.text)}\n`)); // --quiet too
      case 'info': return say(event.dim ? chalk.dim(`${printable(event.text)}\n`) : `${printable(event.text)}\n`);
      case 'status': return progress?.note(event.text, { dim: event.dim });
      case 'trial-start': return progress?.start(event.job, event.index, event.total);
      case 'trial-end': return progress?.end(event.job, event.rows, event.index, event.total);
      case 'start':
        progress = createProgress({ stream: stderr, quiet: quiet || opts.progress === false, chalk, workload: event.workload, nodes: event.nodes.length > 1 });
        return undefined;
      case 'summary':
        progress?.stop();
        progress = undefined;
        return say(`\n${event.text}`);
      case 'recorded': {
        const { rows, planned, extra, failed, files } = event;
        say(`\n${rows} trial rows recorded (${planned} planned${extra ? ` + ${extra} added for the precision` : ''})${failed ? chalk.red(`, ${failed} failed (status=error in trials.csv; --resume DIR --retry-failed measures them again)`) : ''}\n`);
        return files.forEach((file) => say(`  ${printable(file)}\n`));
      }
    }
    return undefined;
  };
  /**
   * The verdicts of a sweep (or a chain's part) once it has ended, or why its report could not be made.
   * @param {import('../api/sweep.js').SweepOutcome} outcome
   */
  const printReport = ({ dir, report, reportError }) => {
    if (report) {
      printSweepReport(report, { stderr, chalk, quiet });
      if (opts.report === false) say(chalk.dim(`no report files (--no-report); to write them: npx udsvstcp report ${printable(dir)}\n`));
    } else stderr.write(chalk.yellow(`warning: the report could not be made: ${printable(reportError?.message ?? '')} (try: npx udsvstcp report ${printable(dir)})\n`));
  };
  const hooks = { signal: abort.signal, hurry: hurry.signal, onProgress };
  /** @type {import('../api/sweep.js').SweepOutcome | import('../api/chain.js').ChainOutcome | null} */
  let outcome;
  try {
    outcome = await chainOutcome(options, {
      ...hooks,
      onPart: (event) => {
        if (event.type === 'part-end') return printReport(event.outcome);
        say(`${event.index ? '\n' : ''}== part ${event.name} (${event.index + 1} of ${event.total}): ${event.preset} into ${printable(event.dir)}${event.skipped ? ' (complete: skipped)' : ''}\n`);
        return undefined;
      },
    });
    if (!outcome) {
      outcome = await sweepOutcome(options, hooks);
      printReport(outcome);
    }
  } finally {
    progress?.stop();
    for (const signal of signals) process.off(signal, onSignal);
  }
  const { document, interrupted, failed, resume } = outcome;
  // data on stdout, whatever --quiet says: the summary as JSON, or where the results are
  stdout.write(opts.json ? toJsonText(document) : `${document.dir}\n`);
  if (received !== null) {
    const what = interrupted ? 'Resume with' : 'Every trial was measured before it; the files are complete. Rewrite the summary with';
    stderr.write(`interrupted (${received}): what was measured is kept. ${what}:\n  ${printable(resume)}\n`);
    return 128 + SIGNALS[received];
  }
  return failed ? 1 : 0;
}
