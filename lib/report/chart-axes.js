/**
 * Axes of the report's charts, fitted to the data they show (pure): the size axis, and log axes for ratios and times.
 */
import { formatSize } from '../core/units.js';

/** How wide a size label is drawn, per character, at Vega's default 10 px label font (an estimate). */
const CHAR_PX = 6.5;
/** How far apart the baselines of angled labels must be not to overlap (10 px font, at 45°). */
const ANGLED_PX = 14;
/** Tick mantissas for log axes, finest first; the finest set that gives at most MAX_TICKS ticks is used. */
const MANTISSAS = [
  [1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9],
  [1, 1.2, 1.4, 1.6, 1.8, 2, 2.5, 3, 4, 5, 6, 7, 8, 9],
  [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9],
  [1, 1.5, 2, 3, 5, 7],
  [1, 2, 5],
  [1, 3],
  [1],
];
const MAX_TICKS = 8;

/** A size as its label shows it (Vega expression, the same text as formatSize: sizes are powers of two). */
const LABEL_SIZE = "datum.value >= 1048576 ? datum.value / 1048576 + ' MiB' : datum.value >= 1024 ? datum.value / 1024 + ' KiB' : datum.value + ' B'";

/**
 * A size as the charts write it in a panel's header: in the workload's own words where it has them (postgres: SELECT 1,
 * 1 lookup), else 64 B, 1 KiB; or, when the sizes are not bytes, the axis's short name and the number.
 * @param {import('../workloads/workload.js').Axis} axis
 * @param {number} size
 */
export const sizeText = (axis, size) => (axis.format ? axis.format(size) : axis.powerOfTwo ? formatSize(size) : `${axis.short} ${size}`);

/**
 * The size axis, a tick and label at every size (none dropped for overlap), the labels angled -45° or -90° when they
 * would not fit upright side by side, padded so neither end's label sits on the edge. Byte sizes on a log₂ axis
 * labelled 64 B, 1 KiB; any other size (a count, 0 among them: a log axis cannot place 0, and drew every point at 0
 * with no tick) on a linear axis labelled with the number.
 * @param {number[]} sizes sorted ascending; positive where the axis is a byte size
 * @param {import('../workloads/workload.js').Axis} axis the workload's size axis: its label is the axis title
 * @param {number} width of a panel, pixels
 */
export function sizeAxis(sizes, axis, width) {
  const log = Boolean(axis.powerOfTwo) && sizes[0] > 0;
  const at = log ? Math.log2 : (/** @type {number} */ v) => v;
  const lo = sizes[0];
  const hi = sizes[sizes.length - 1];
  const span = at(hi) - at(lo);
  const pad = Math.max(0.5, span * 0.05);
  const gaps = sizes.slice(1).map((s, i) => at(s) - at(sizes[i]));
  const pixelGap = gaps.length ? (width * Math.min(...gaps)) / (span + 2 * pad) : Infinity;
  const labelPx = Math.max(...sizes.map((s) => (log ? formatSize(s) : String(s)).length)) * CHAR_PX + 6;
  const labelAngle = pixelGap >= labelPx ? 0 : pixelGap >= ANGLED_PX ? -45 : -90;
  const ticks = { values: sizes, labelAngle, labelOverlap: false, labelFlush: false, grid: true };
  return {
    field: 'size',
    type: 'quantitative',
    title: axis.label,
    ...(log
      ? { scale: { type: 'log', base: 2, nice: false, domain: [lo * 2 ** -pad, hi * 2 ** pad] }, axis: { ...ticks, labelExpr: LABEL_SIZE } }
      : { scale: { type: 'linear', nice: false, zero: false, domain: [lo - pad, hi + pad] }, axis: { ...ticks, format: 'd' } }),
  };
}

/**
 * A log domain spanning `values` (and `include`, e.g. 1 on a ratio axis), padded 5 % of the span each side, at least ×1.05.
 * @param {(number | null | undefined)[]} values
 * @param {number[]} [include]
 * @returns {[number, number] | null} null when there is no positive finite value
 */
export function logDomain(values, include = []) {
  const positive = [...values, ...include].filter((v) => typeof v === 'number' && Number.isFinite(v) && v > 0).map(Number);
  if (positive.length === 0) return null;
  const lo = Math.log10(Math.min(...positive));
  const hi = Math.log10(Math.max(...positive));
  const pad = Math.max((hi - lo) * 0.05, Math.log10(1.05));
  return [10 ** (lo - pad), 10 ** (hi + pad)];
}

/**
 * Round ticks in a log domain: the finest 1–2–5-like sequence giving at most 8 (1 among them when the domain holds
 * it); beyond that, every n-th power of ten.
 * @param {[number, number]} domain
 */
export function logTicks([lo, hi]) {
  const first = Math.floor(Math.log10(lo));
  const last = Math.ceil(Math.log10(hi));
  /** @param {number[]} mantissas @param {number} step */
  const ticks = (mantissas, step = 1) => {
    const out = [];
    for (let e = first; e <= last; e++) {
      if ((e % step + step) % step !== 0) continue;
      for (const m of mantissas) {
        const v = Number((m * 10 ** e).toPrecision(12));
        if (v >= lo && v <= hi) out.push(v);
      }
    }
    return out;
  };
  for (const mantissas of MANTISSAS) {
    const found = ticks(mantissas);
    if (found.length <= MAX_TICKS) return found;
  }
  const step = Math.ceil((last - first + 1) / MAX_TICKS);
  return ticks([1], step);
}

/**
 * A log y axis fitted to `values`: its scale and axis for a Vega-Lite encoding.
 * @param {(number | null | undefined)[]} values
 * @param {number[]} [include]
 */
export function logAxis(values, include = []) {
  const domain = logDomain(values, include) ?? [0.5, 2];
  return { scale: { type: 'log', nice: false, zero: false, domain }, axis: { values: logTicks(domain), format: ',~g' } };
}
