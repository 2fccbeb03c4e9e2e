/**
 * A chained preset's sweep (lib/sweep/chain.js): each part an ordinary sweep (sweepOutcome) into DIR/<part>/, in order,
 * with DIR/chain.json kept up to date. A signal stops the part running as a sweep stops (resumable) and starts no
 * later part; `sweep --resume DIR` resumes the part that was stopped and runs those not yet run, skipping complete ones.
 * Also the report of a chain's directory: each part's, as `udsvstcp report` makes it.
 */
import { existsSync, rmdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { version } from '../core/environment.js';
import { checkPrivateDir } from '../core/ownership.js';
import { resumeCommand } from '../core/shell.js';
import { SPEC_FLAGS, checkOptionKeys, parseSetting } from '../options/settings.js';
import { readMeta } from '../results/meta.js';
import { toReportDocument } from '../results/json.js';
import { FILES, defaultOutDir } from '../results/writer.js';
import { acquireLock } from '../results/lock.js';
import { writeReport } from '../report/report-files.js';
import { CHAIN_FILE, chainOf, readChainFile, refuseDesignFlags, writeChainFile } from '../sweep/chain.js';
import { SWEEP_OPTIONS, resolveSweep } from '../sweep/request.js';
import { checkNewOutDir, checkResumable, makeOutDir } from '../sweep/session.js';
import { toNodeList } from '../sweep/spec.js';
import { reportOutcome } from './report.js';
import { sweepOutcome } from './sweep.js';

/** The options every part of a chain gets as given: how it runs, not what it measures. */
const PASSED = ['probe', 'report', 'allowSharedDir', 'nginx', 'redisServer', 'postgresBin', 'node'];

/**
 * @typedef {object} ChainPartOutcome
 * @property {string} name
 * @property {string} preset
 * @property {string} dir the part's results directory
 * @property {'complete' | 'interrupted' | 'failed' | 'pending'} status
 * @property {import('./sweep.js').SweepOutcome | null} outcome this invocation's sweep of it (null: skipped or not run)
 * @property {Record<string, any> | null} document its summary document (null: not run)
 */

/**
 * @typedef {object} ChainOutcome what `udsvstcp sweep CHAINED-PRESET` prints from
 * @property {string} dir the chain's results directory
 * @property {Record<string, any>} document { chain, description, dir, status, parts: [{ name, preset, dir, status, document }] }
 * @property {ChainPartOutcome[]} parts
 * @property {boolean} interrupted a part is left to run or to resume
 * @property {number} failed trial rows with status error, over the parts swept now
 * @property {string} resume the command that continues the chain
 */

/**
 * The chain sweep()'s options ask for (a chained preset, or --resume of a chain's directory), swept; null: they ask for
 * no chain.
 * @param {import('../sweep/request.js').SweepOptions} options as for sweep()
 * @param {import('./sweep.js').SweepHooks & { onPart?: (event: { type: 'part', name: string, preset: string, dir: string, index: number, total: number, skipped: boolean } | { type: 'part-end', name: string, outcome: import('./sweep.js').SweepOutcome }) => void }} [hooks]
 *   onPart: a part begins (skipped: complete before this resume) or ends; its sweep says the rest through onProgress
 * @returns {Promise<ChainOutcome | null>}
 */
export async function chainOutcome(options, { onProgress = () => {}, onPart = () => {}, signal = new AbortController().signal, hurry } = {}) {
  const chain = chainOf(options);
  if (!chain) return null;
  checkOptionKeys('sweep', options, [...SWEEP_OPTIONS, ...SPEC_FLAGS]);
  refuseDesignFlags(chain, options);
  const allowShared = Boolean(options.allowSharedDir);
  /** @type {Record<string, unknown>} */
  const passed = Object.fromEntries(PASSED.filter((key) => options[key] !== undefined).map((key) => [key, options[key]]));
  const nodeList = toNodeList(options.node, '--node');
  const resuming = options.resume !== undefined;
  const dir = resuming ? String(options.resume) : options.out ?? defaultOutDir(chain.name);
  const flag = resuming ? '--resume' : options.out !== undefined ? '--out' : 'results directory';
  // as the chain records them: parsed (--seed 011 is 11), after the checks that come first
  const flagOf = (/** @type {string} */ key) => (options[key] === undefined ? null : parseSetting(key, options[key]));
  let { record } = chain;
  if (record) {
    if (options.out !== undefined) throw new UsageError('--resume DIR and --out DIR exclude each other: the results go back into DIR');
    const where = join(dir, CHAIN_FILE);
    if (options.preset !== undefined && options.preset !== record.preset) throw new UsageError(`--resume ${dir} holds the chained preset ${record.preset} (${where}); got ${JSON.stringify(options.preset)}`);
    if (options.test !== undefined && Boolean(options.test) !== Boolean(record.test)) throw new UsageError(`--test ${options.test ? 'given' : 'not given'}, but ${where} records test ${Boolean(record.test)}: a resume runs the chain as it began`);
    for (const key of ['seed', 'pin']) {
      const recorded = record.flags?.[key] ?? null;
      if (options[key] !== undefined && JSON.stringify(flagOf(key)) !== JSON.stringify(recorded)) throw new UsageError(`--${key} ${options[key]} differs from what ${where} records (${key} ${recorded ?? 'not given'}): a resume runs the chain as it began`);
    }
  } else {
    if (options.retryFailed) throw new UsageError('--retry-failed needs --resume DIR: it measures again the failed trials recorded there');
    checkNewOutDir(dir, flag, allowShared); // refuses a directory with results, or with a chain.json
    record = {
      udsvstcp: version(),
      preset: chain.name,
      description: chain.description,
      test: Boolean(options.test),
      flags: { seed: flagOf('seed'), pin: flagOf('pin') },
      status: 'running',
      started_at: new Date().toISOString(),
      ended_at: null,
      parts: chain.parts.map((p) => ({ name: p.name, preset: p.preset, dir: p.name, status: 'pending' })),
    };
  }
  const resume = resumeCommand(dir, nodeList ? nodeList.map((given) => ({ given })) : null);

  // each part's plan: checked, all of them, as its sweep will check it, before anything is created or measured
  const plans = record.parts.map((/** @type {Record<string, any>} */ part) => {
    const partDir = join(dir, part.dir);
    const begun = existsSync(join(partDir, FILES.meta));
    /** @type {Record<string, unknown>} */
    const partOptions = begun
      ? { resume: partDir, ...(options.retryFailed ? { retryFailed: true } : {}), ...passed }
      : { preset: part.preset, out: partDir, ...(record.test ? { test: true } : {}), ...(record.flags?.seed !== null && record.flags?.seed !== undefined ? { seed: record.flags.seed } : {}), ...(record.flags?.pin ? { pin: record.flags.pin } : {}), ...passed };
    // a complete part too: --node or --nginx given to this resume must be right, whatever is left to run
    const request = resolveSweep(partOptions);
    const meta = request.resume ? checkResumable(request).meta : null;
    if (!request.resume) request.findExecutables(/** @type {import('../sweep/spec.js').SweepSpec} */ (request.spec));
    return { part, partDir, skip: meta?.status === 'complete' && !options.retryFailed, partOptions };
  });

  const made = !existsSync(dir);
  makeOutDir(dir, flag);
  let lock;
  try {
    if (!allowShared) checkPrivateDir(dir, flag);
    lock = acquireLock(dir, { flag });
  } catch (error) {
    if (made) {
      try {
        rmdirSync(dir); // made just now: gone again (only if still empty)
      } catch {
        // another process put something in it meanwhile: leave it
      }
    }
    throw error;
  }
  const save = () => writeChainFile(dir, record);
  /** @type {ChainPartOutcome[]} */
  const parts = [];
  let failed = 0;
  const was = resuming ? record.status : 'interrupted';
  try {
    record.status = 'running';
    save();
    const total = plans.length;
    for (const [index, { part, partDir, skip, partOptions }] of plans.entries()) {
      if (skip) {
        part.status = 'complete';
        onPart({ type: 'part', name: part.name, preset: part.preset, dir: partDir, index, total, skipped: true });
        const { findings } = await writeReport(partDir, { allowShared, write: false });
        parts.push({ name: part.name, preset: part.preset, dir: partDir, status: 'complete', outcome: null, document: toReportDocument(findings, { dir: resolve(partDir), files: [] }) });
        continue;
      }
      if (signal.aborted) {
        parts.push({ name: part.name, preset: part.preset, dir: partDir, status: part.status, outcome: null, document: null });
        continue;
      }
      onPart({ type: 'part', name: part.name, preset: part.preset, dir: partDir, index, total, skipped: false });
      const before = part.status;
      part.status = 'running';
      save();
      let outcome;
      try {
        outcome = await sweepOutcome(partOptions, { onProgress, signal, hurry });
      } catch (error) {
        const err = /** @type {Error & { hint?: string }} */ (error);
        // refused before the part's sweep opened its directory (a sweep's later errors carry a hint): nothing of it
        // changed, so nothing failed; chain.json says again what it said, and the refusal stays one line
        if (error instanceof UsageError && err.hint === undefined) {
          part.status = before;
          record.status = parts.some((p) => p.outcome) ? 'interrupted' : was;
          save();
          throw error;
        }
        part.status = 'failed';
        record.status = 'failed';
        record.ended_at = new Date().toISOString();
        save();
        err.hint = `${err.hint ? `${err.hint}\n` : ''}  the chain ${record.preset} (${join(dir, CHAIN_FILE)}) stopped at its part ${part.name}; it continues with:\n  ${resume}`;
        throw err;
      }
      part.status = outcome.interrupted ? 'interrupted' : 'complete';
      failed += outcome.failed;
      save();
      onPart({ type: 'part-end', name: part.name, outcome });
      parts.push({ name: part.name, preset: part.preset, dir: partDir, status: part.status, outcome, document: outcome.document });
    }
    const interrupted = record.parts.some((/** @type {Record<string, any>} */ p) => p.status !== 'complete');
    record.status = interrupted ? 'interrupted' : 'complete';
    record.ended_at = new Date().toISOString();
    save();
    const document = toChainDocument(record, dir, record.status, parts);
    return { dir, document, parts, interrupted, failed, resume };
  } finally {
    lock.release();
  }
}

/**
 * The document of a chain (`sweep --json` and `report --json` of its directory): the chain, its status, and each part's
 * status and summary document (null: not run).
 * @param {Record<string, any>} record chain.json
 * @param {string} dir
 * @param {string} status
 * @param {{ name: string, preset: string, dir: string, status: string, document: Record<string, any> | null }[]} parts
 */
function toChainDocument(record, dir, status, parts) {
  return { chain: record.preset, description: record.description ?? '', dir: resolve(dir), status, parts: parts.map((p) => ({ name: p.name, preset: p.preset, dir: resolve(p.dir), status: p.status, document: p.document })) };
}

/**
 * The report of a chain's directory (null: it holds no chain.json): each part's report written into its own directory, as `udsvstcp report DIR/<part>`
 * writes it; a part not run yet is said, not an error. Each part's status is its meta.json's (chain.json may still say
 * running after a kill); the chain is complete when every part is, failed when one failed, else interrupted.
 * @param {string} dir
 * @param {import('./report.js').ReportOptions} [options]
 */
export async function chainReportOutcome(dir, options = {}) {
  const allowShared = Boolean(options.allowSharedDir);
  const record = readChainFile(dir, { flag: 'report', allowShared });
  if (!record) return null;
  checkOptionKeys('report', options, ['out', 'figure', 'allowSharedDir']);
  if (options.out !== undefined) throw new UsageError(`--out writes one report, and ${dir} holds a chain of ${record.parts.length} sweeps (${CHAIN_FILE}); give a part's directory: udsvstcp report ${join(dir, record.parts[0].dir)} --out …`);
  const parts = [];
  for (const part of record.parts) {
    const partDir = join(dir, part.dir);
    const status = existsSync(join(partDir, FILES.meta)) ? String(readMeta(partDir, 'report', { allowShared }).status) : 'pending';
    const made = existsSync(join(partDir, FILES.trials)) ? await reportOutcome(partDir, options) : null;
    parts.push({ name: /** @type {string} */ (part.name), preset: /** @type {string} */ (part.preset), dir: partDir, status, made, document: made?.document ?? null });
  }
  const status = parts.every((p) => p.status === 'complete') ? 'complete' : parts.some((p) => p.status === 'failed') ? 'failed' : 'interrupted';
  return { record, parts, document: toChainDocument(record, dir, status, parts) };
}
