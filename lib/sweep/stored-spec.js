/**
 * The spec recorded in meta.json, checked on resume as strictly as a spec file (it may have been edited by hand), and
 * the flags given with --resume compared with it key by key: equal values accepted, others refused naming the flag. An
 * executable is never taken from meta.json: a recorded `nginx` path is a record, not a setting, and so is the `node`
 * list (what the first session was asked to run; lib/sweep/node-axis.js finds each session's Nodes).
 */
import { UsageError } from '../core/errors.js';
import { DEFAULTS, SETTINGS, SPEC_KEYS, viewOf } from '../options/settings.js';
import { resolveSpec, showAmount, toNodeList } from './spec.js';

/** Resolved keys in milliseconds (`blockMs`), each with the spec-file key (a time) it comes from. */
const MS_KEYS = Object.fromEntries(SPEC_KEYS.filter((k) => SETTINGS[k].kind === 'time' && !SETTINGS[k].resolved).map((k) => [`${k}Ms`, k]));

/** Keys of a resolved spec that are not spec-file keys: mapped back by toRawSpec, or derived (maxRuns). */
const RESOLVED_ONLY = new Set(['preset', 'test', 'measure', 'warmup', 'maxRuns', ...Object.keys(MS_KEYS)]);

/** Keys of a recorded spec that record what ran and set nothing: the nginx binary (earlier sweeps recorded it in the spec) and the Node executables asked for. */
const RECORDS = new Set(['nginx', 'node']);

/**
 * A recorded spec without its records.
 * @param {Record<string, any>} spec
 */
const settingsOf = (spec) => Object.fromEntries(Object.entries(spec).filter(([key]) => !RECORDS.has(key)));

/**
 * The flags that set a resolved key (`--packets/--duration` for measure), or the spec key where no flag does.
 * @param {string} resolved
 */
function flagOf(resolved) {
  const keys = SPEC_KEYS.filter((k) => (SETTINGS[k].resolved ?? (SETTINGS[k].kind === 'time' ? `${k}Ms` : k)) === resolved);
  const flags = keys.filter((k) => SETTINGS[k].cmd.sweep).map((k) => viewOf(SETTINGS[k], 'sweep').flag.replace(/ .*/, ''));
  return flags.length ? flags.join('/') : keys[0] ?? resolved;
}

/**
 * @param {unknown} value
 * @param {string} where
 * @returns {{ packets: number } | { ms: number }}
 */
function toAmount(value, where) {
  const v = /** @type {any} */ (value);
  if (v && typeof v === 'object' && Object.keys(v).length === 1) {
    if (Number.isFinite(v.packets)) return { packets: v.packets };
    if (Number.isFinite(v.ms)) return { ms: v.ms };
  }
  throw new UsageError(`${where} must be {"packets": N} or {"ms": N}; got ${JSON.stringify(value)}`);
}

/**
 * The spec-file keys that resolve to `spec` again.
 * @param {unknown} spec a resolved spec, as meta.json holds it
 * @param {string} where e.g. `DIR/meta.json "spec"`
 */
function toRawSpec(spec, where) {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    throw new UsageError(`${where} is missing or not an object of sweep keys; this directory cannot be resumed (start a new sweep)`, 'ERR_META');
  }
  const s = /** @type {Record<string, unknown>} */ (spec);
  if (typeof s.preset !== 'string' || s.preset === '') throw new UsageError(`${where} "preset" must be the preset's name; got ${JSON.stringify(s.preset)}`, 'ERR_META');
  if (typeof s.test !== 'boolean') throw new UsageError(`${where} "test" must be true or false; got ${JSON.stringify(s.test)}`, 'ERR_META');
  if (!Number.isInteger(s.seed)) throw new UsageError(`${where} "seed" must be the whole number the sweep used; got ${JSON.stringify(s.seed)}`, 'ERR_META');
  /** @type {Record<string, unknown>} */
  const raw = {};
  for (const [key, value] of Object.entries(s)) {
    if (RESOLVED_ONLY.has(key) || RECORDS.has(key)) continue;
    if (!(key in DEFAULTS) && key !== 'description') throw new UsageError(`${where}: unknown key "${key}"`, 'ERR_META');
    raw[key] = value;
  }
  const measure = toAmount(s.measure, `${where} "measure"`);
  if ('packets' in measure) raw.packets = measure.packets;
  else raw.duration = `${measure.ms}ms`;
  const warmup = toAmount(s.warmup, `${where} "warmup"`);
  raw.warmup = 'packets' in warmup ? warmup.packets : `${warmup.ms}ms`;
  for (const [key, rawKey] of Object.entries(MS_KEYS)) {
    if (s[key] !== null && !Number.isFinite(s[key])) throw new UsageError(`${where} "${key}" must be a number of milliseconds; got ${JSON.stringify(s[key])}`);
    raw[rawKey] = s[key] === null ? null : `${s[key]}ms`;
  }
  return { preset: s.preset, test: s.test, raw };
}

/**
 * A recorded value for people: 100 packets, 150 ms, [1,64].
 * @param {any} value
 */
function show(value) {
  if (value && typeof value === 'object' && ('packets' in value || 'ms' in value)) return showAmount(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * @param {Record<string, any>} a
 * @param {Record<string, any>} b
 */
function differingKeys(a, b) {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

/** Keys udsvstcp records since after 0.6.0, as a resolved spec names them, and their defaults: a spec recorded without one ran with it. */
const LATER_KEYS = { arrivals: DEFAULTS.arrivals, connections: null, serverWorkMs: null, serverDelayMs: null, clients: DEFAULTS.clients, batch: DEFAULTS.batch };

/**
 * Validate the recorded spec; return it as the sweep will use it.
 * @param {unknown} stored
 * @param {string} where
 * @returns {import('./spec.js').SweepSpec}
 */
export function checkStoredSpec(stored, where) {
  // with the keys of LATER_KEYS it lacks, at their defaults (anything else is checked as it is)
  const complete = typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? { ...Object.fromEntries(Object.entries(LATER_KEYS).filter(([k]) => !(k in stored))), ...stored } : stored;
  const { preset, test, raw } = toRawSpec(complete, where);
  const resolved = { ...resolveSpec({ name: preset, source: where, raw }), test };
  const differ = differingKeys(settingsOf(/** @type {any} */ (complete)), settingsOf(resolved));
  if (differ.length) {
    throw new UsageError(`${where} "${differ[0]}" is not in the form udsvstcp records (${JSON.stringify(/** @type {any} */ (stored)[differ[0]])}; expected ${JSON.stringify(/** @type {any} */ (resolved)[differ[0]])}); it was edited by hand`, 'ERR_META');
  }
  return { ...resolved, node: toNodeList(/** @type {any} */ (stored).node, `${where} "node"`) };
}

/**
 * Flags given with --resume must equal what was recorded.
 * @param {import('./spec.js').SweepSpec} stored checked by checkStoredSpec
 * @param {{ preset?: string, test: boolean, flags: Record<string, unknown> }} given
 * @param {string} dir
 */
export function checkResumeFlags(stored, { preset, test, flags }, dir) {
  const problems = [];
  if (preset !== undefined && preset.replace(/^.*\//, '').replace(/\.json$/, '') !== stored.preset) problems.push(`preset ${preset} (recorded: ${stored.preset})`);
  if (test && !stored.test) problems.push('--test (recorded: a full sweep)');
  // auto is measured once, before the plan is fixed: a resume offers the rates recorded
  if (flags?.depths === 'auto') problems.push(`--depths auto (recorded: ${show(stored.depths)}, which a resume offers again)`);
  const { raw } = toRawSpec(stored, `${dir} meta.json "spec"`);
  const given = { ...resolveSpec({ name: stored.preset, source: `${dir} meta.json "spec"`, raw }, { flags: flags?.depths === 'auto' ? { ...flags, depths: undefined } : flags }), test: stored.test };
  for (const key of differingKeys(settingsOf(stored), settingsOf(given))) {
    problems.push(`${flagOf(key)} ${show(/** @type {any} */ (given)[key])} (recorded: ${show(/** @type {any} */ (stored)[key])})`);
  }
  if (problems.length) {
    throw new UsageError(`--resume ${dir}: ${problems.join('; ')} differ from what meta.json records; give only flags equal to the recorded spec, or --resume DIR alone`);
  }
}
