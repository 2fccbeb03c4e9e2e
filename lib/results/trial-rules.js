/**
 * What trials.csv and meta.json must hold for a report or comparison (docs/cli.md#report lists the rules). A failed
 * rule is a one-line UsageError naming file, line and column (or key), what was found and what is accepted. In an ok
 * row, costs and times (lower is better) may be 0: a CPU time can round to 0.
 */
import { UsageError } from '../core/errors.js';
import { MAX_RUNS } from '../core/limits.js';
import { formatSize, isPowerOfTwo } from '../core/units.js';
import { TRANSPORTS } from '../transports/index.js';
import { WORKLOADS, WORKLOAD_NAMES, sizeLabel, workloadOf } from '../workloads/index.js';
import { FIGURES } from '../workloads/figures.js';
import { VERSION_PATTERN } from '../core/node-executables.js';
import { parseCell } from './csv.js';

/** Columns every trials.csv of udsvstcp has, whatever its version. */
const REQUIRED_COLUMNS = ['run', 'workload', 'transport', 'size_bytes', 'depth', 'status'];
/** Columns that hold text; every other cell is a number or empty. */
const TEXT_COLUMNS = new Set(['workload', 'node_version', 'transport', 'status', 'error']);
export const STATUSES = ['ok', 'error', 'superseded'];

/**
 * @param {string} path
 * @param {number} line
 * @param {number} k index of the column
 * @param {string} name
 */
const at = (path, line, k, name) => `${path}: line ${line}, column ${k + 1} (${name})`;

/**
 * The header of trials.csv: each column named once, the required ones there.
 * @param {string} path
 * @param {string[]} columns
 * @returns {Map<string, number>} the index of each column
 */
function checkHeader(path, columns) {
  /** @type {Map<string, number>} */
  const index = new Map();
  columns.forEach((name, k) => {
    const first = index.get(name);
    if (first !== undefined) throw new UsageError(`${path}: line 1, columns ${first + 1} and ${k + 1} are both named ${JSON.stringify(name)}; a trials file names each column once`, 'ERR_RESULTS');
    index.set(name, k);
  });
  const missing = REQUIRED_COLUMNS.filter((c) => !index.has(c));
  if (missing.length) throw new UsageError(`${path}: not a udsvstcp trials file: no column ${missing.join(', ')} (found ${columns.slice(0, 6).join(', ')}${columns.length > 6 ? ', …' : ''})`, 'ERR_RESULTS');
  return index;
}

/**
 * A reader of one trials.csv's rows: called with each record and its line, in order, it returns the row (numbers as
 * numbers, empty cells null) or throws naming line and column.
 * @param {string} path
 * @param {string[]} columns checked by checkHeader
 */
export function createRowReader(path, columns) {
  const index = checkHeader(path, columns);
  const figures = columns.map((name, k) => ({ name, k })).filter(({ name }) => Object.hasOwn(FIGURES, name));
  /** @type {Map<string, number>} the line of each (run, group, transport) */
  const seen = new Map();
  /** @type {Set<string>} workloads whose primary figure has a column */
  const primaryChecked = new Set();
  // every row starts as a copy of this one: objects of one shape with fast properties (keys stored
  // one by one into an empty object would make a slow dictionary of each row, and every pass over them slow)
  const template = Object.fromEntries(columns.map((name) => [name, null]));

  /**
   * @param {string[]} record
   * @param {number} line
   */
  return function readRow(record, line) {
    /** @type {Record<string, any>} */
    const row = { ...template };
    for (let k = 0; k < columns.length; k++) {
      const name = columns[k];
      if (TEXT_COLUMNS.has(name)) {
        row[name] = record[k] === '' ? null : record[k];
        continue;
      }
      const value = parseCell(record[k]);
      if (typeof value === 'number' && !Number.isFinite(value)) throw new UsageError(`${at(path, line, k, name)}: ${record[k]} is not a finite number`, 'ERR_RESULTS');
      row[name] = value;
    }
    const where = (/** @type {string} */ name) => at(path, line, /** @type {number} */ (index.get(name)), name);
    const choose = (/** @type {string} */ name, /** @type {readonly string[]} */ allowed) => {
      if (!allowed.includes(row[name])) throw new UsageError(`${where(name)}: ${JSON.stringify(row[name])} is not one of ${allowed.join(', ')}`, 'ERR_RESULTS');
    };
    choose('workload', WORKLOAD_NAMES);
    choose('transport', TRANSPORTS);
    choose('status', STATUSES);
    if (row.node_version !== undefined && row.node_version !== null && !VERSION_PATTERN.test(row.node_version)) {
      throw new UsageError(`${where('node_version')}: ${JSON.stringify(row.node_version)} is not a Node version such as v20.20.2`, 'ERR_RESULTS');
    }
    const w = WORKLOADS[row.workload];
    wholeNumber(row.run, where('run'), { min: 0, max: MAX_RUNS - 1, what: 'run numbers of a sweep' });
    const { size, depth } = w.axes;
    wholeNumber(row.size_bytes, where('size_bytes'), { min: size.min, max: size.max, what: `${w.name} ${size.label}s`, bytes: !size.format });
    if (size.powerOfTwo && !isPowerOfTwo(row.size_bytes)) throw new UsageError(`${where('size_bytes')}: ${row.size_bytes} is not a power of two, as ${w.name} ${size.label}s are`, 'ERR_RESULTS');
    wholeNumber(row.depth, where('depth'), { min: depth.min, max: depth.max, what: `${w.name} depths (${depth.label})` });
    if (row.status === 'ok') checkFigures(row, line);
    if (row.status !== 'superseded') {
      const key = `${row.run}|${row.workload}|${row.node_version ?? ''}|${row.size_bytes}|${row.depth}|${row.transport}`;
      const first = seen.get(key);
      if (first !== undefined) {
        const node = row.node_version ? ` on Node ${row.node_version}` : '';
        throw new UsageError(`${path}: line ${line}, columns run, workload, ${row.node_version ? 'node_version, ' : ''}size_bytes, depth, transport: a second row for run ${row.run} of ${row.workload} ${sizeLabel(row.workload, row.size_bytes)} depth ${row.depth}${node} over ${row.transport.toUpperCase()} (the first is line ${first}); a run has one row per transport, so its transports pair without doubt`, 'ERR_RESULTS');
      }
      seen.set(key, line);
    }
    return row;
  };

  /**
   * @param {Record<string, any>} row an ok row
   * @param {number} line
   */
  function checkFigures(row, line) {
    const primary = WORKLOADS[row.workload].primary;
    if (!primaryChecked.has(row.workload)) {
      if (!index.has(primary)) throw new UsageError(`${path}: line 1: no column ${primary}, the primary figure of ${row.workload}, yet line ${line} is an ok ${row.workload} trial`, 'ERR_RESULTS');
      primaryChecked.add(row.workload);
    }
    for (const { name, k } of figures) {
      const value = row[name];
      if (value === null) {
        if (name === primary) throw new UsageError(`${at(path, line, k, name)}: empty in an ok trial; ${name} is the primary figure of ${row.workload}, a number above 0`, 'ERR_RESULTS');
        continue;
      }
      if (typeof value !== 'number') throw new UsageError(`${at(path, line, k, name)}: ${JSON.stringify(value)} is not a number`, 'ERR_RESULTS');
      if (FIGURES[name].better === 'higher' ? !(value > 0) : value < 0) {
        throw new UsageError(`${at(path, line, k, name)}: ${value} in an ok trial; ${name} (${FIGURES[name].unit}) must be ${FIGURES[name].better === 'higher' ? 'above 0' : '0 or more'}`, 'ERR_RESULTS');
      }
    }
  }
}

/**
 * @param {unknown} value
 * @param {string} where
 * @param {{ min: number, max: number, what: string, bytes?: boolean }} bounds
 */
function wholeNumber(value, where, { min, max, what, bytes = false }) {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new UsageError(`${where}: ${JSON.stringify(value)} is not a whole number`, 'ERR_RESULTS');
  if (value < min || value > max) {
    const range = bytes ? `${formatSize(min)} to ${formatSize(max)}` : `${min} to ${max}`;
    throw new UsageError(`${where}: ${value} is out of range; ${what} go from ${range}`, 'ERR_RESULTS');
  }
}

/**
 * The keys of meta.json's spec a report reads (workload, planned sizes, depths, transports and runs, target precision):
 * each may be absent (older versions, hand-made directories); present, it must be what a sweep records.
 * @param {string} path of meta.json
 * @param {Record<string, any>} meta
 */
export function checkMetaSpec(path, meta) {
  if (meta.spec === undefined || meta.spec === null) return;
  const spec = meta.spec;
  if (typeof spec !== 'object' || Array.isArray(spec)) throw new UsageError(`${path}: "spec" is ${JSON.stringify(spec)}, not an object of sweep keys`, 'ERR_RESULTS');
  const key = (/** @type {string} */ name) => `${path}: "spec.${name}"`;
  if (spec.workload !== undefined && !(typeof spec.workload === 'string' && WORKLOAD_NAMES.includes(spec.workload))) {
    throw new UsageError(`${key('workload')} is ${JSON.stringify(spec.workload)}, not one of ${WORKLOAD_NAMES.join(', ')}`, 'ERR_RESULTS');
  }
  const w = workloadOf(spec.workload);
  if (spec.runs !== undefined) wholeNumber(spec.runs, key('runs'), { min: 1, max: MAX_RUNS, what: 'the runs of a sweep' });
  for (const [name, axis] of /** @type {const} */ ([['sizes', w.axes.size], ['depths', w.axes.depth]])) {
    if (spec[name] === undefined) continue;
    if (!Array.isArray(spec[name])) throw new UsageError(`${key(name)} is ${JSON.stringify(spec[name])}, not a list`, 'ERR_RESULTS');
    spec[name].forEach((/** @type {unknown} */ v, /** @type {number} */ i) => wholeNumber(v, `${key(name)}[${i}]`, { min: axis.min, max: axis.max, what: `${w.name} ${axis.label}s`, bytes: name === 'sizes' && !axis.format }));
  }
  if (spec.transports !== undefined && !(Array.isArray(spec.transports) && spec.transports.every((/** @type {unknown} */ t) => TRANSPORTS.includes(/** @type {any} */ (t))))) {
    throw new UsageError(`${key('transports')} is ${JSON.stringify(spec.transports)}, not a list of ${TRANSPORTS.join(', ')}`, 'ERR_RESULTS');
  }
  if (spec.precision !== undefined && spec.precision !== null && !(typeof spec.precision === 'number' && spec.precision > 0 && spec.precision <= 1)) {
    throw new UsageError(`${key('precision')} is ${JSON.stringify(spec.precision)}; a target precision is a fraction above 0 and at most 1, or null`, 'ERR_RESULTS');
  }
}
