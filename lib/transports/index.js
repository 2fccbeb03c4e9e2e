/**
 * The transports, by name: everything finds a transport here and reads its declaration (./transport.js). TCP is the
 * baseline every other is measured against (`<name>/tcp` ratio rows); UDS/TCP is the headline. To add a transport,
 * write its declaration here and list it in TRANSPORTS (whose order is that of columns, rows and legends).
 */
import { UsageError } from '../core/errors.js';
import { tcp } from './tcp.js';
import { uds } from './uds.js';
import { udsAbstract } from './uds-abstract.js';
import { ipcJson } from './ipc-json.js';
import { ipcAdvanced } from './ipc-advanced.js';
import { worker } from './worker.js';

/** @type {Record<string, import('./transport.js').Transport>} */
export const TRANSPORT_DECLARATIONS = { tcp, uds, 'uds-abstract': udsAbstract, 'ipc-json': ipcJson, 'ipc-advanced': ipcAdvanced, worker };

/** Every transport's name, in order. */
export const TRANSPORTS = /** @type {readonly string[]} */ (Object.freeze(Object.keys(TRANSPORT_DECLARATIONS)));

/** The transport every ratio is against. */
export const BASELINE = 'tcp';
/** The transport of the headline ratio (UDS/TCP): the one declared `headline`. */
export const HEADLINE = /** @type {string} */ (TRANSPORTS.find((name) => TRANSPORT_DECLARATIONS[name].headline));
/** The baseline and the headline: what a sweep measures unless told (`both`), and what results that name no transports measured. */
export const PAIR = /** @type {readonly string[]} */ (Object.freeze([BASELINE, HEADLINE]));

/**
 * The transports of a list beyond the baseline and the headline, in the list's order: a comparison's `others`.
 * @param {Iterable<string>} names
 */
export const othersOf = (names) => [...names].filter((t) => t !== BASELINE && t !== HEADLINE);

/** @param {unknown} name */
export const isTransport = (name) => typeof name === 'string' && Object.hasOwn(TRANSPORT_DECLARATIONS, name);

/**
 * @param {string} name
 * @returns {import('./transport.js').Transport}
 */
export function getTransport(name) {
  if (!isTransport(name)) throw new UsageError(`unknown transport ${JSON.stringify(name)}; known: ${TRANSPORTS.join(', ')}`);
  return TRANSPORT_DECLARATIONS[name];
}

/**
 * @param {string} name
 */
export function isAvailable(name, platform = process.platform) {
  const t = TRANSPORT_DECLARATIONS[name];
  return Boolean(t) && (t.platforms === null || t.platforms.includes(platform));
}

/** The stream transports a server on this platform listens on at once. */
export function listenedTransports() {
  return TRANSPORTS.filter((name) => isAvailable(name) && TRANSPORT_DECLARATIONS[name].listen);
}

/**
 * A ratio's transport cell: `uds/tcp`.
 * @param {string} name
 */
export const ratioOf = (name) => `${name}/${BASELINE}`;

/**
 * The transport of a ratio cell (`uds-abstract/tcp` → `uds-abstract`), or null for a transport's own cell.
 * @param {unknown} cell
 */
export function ratioTransport(cell) {
  const text = String(cell);
  const suffix = `/${BASELINE}`;
  return text.length > suffix.length && text.endsWith(suffix) ? text.slice(0, -suffix.length) : null;
}

/**
 * Names for people: `TCP`, `UDS`, `UDS abstract`, `UDS/TCP` …; unknown names (a newer file) upper-cased.
 * @param {unknown} cell a transport or a ratio cell
 */
export function labelOf(cell) {
  const text = String(cell);
  const one = (/** @type {string} */ name) => TRANSPORT_DECLARATIONS[name]?.label ?? name.toUpperCase();
  return text.split('/').map(one).join('/');
}

/**
 * Transports in the registry's order (unknown names last, in their own order), without repeats.
 * @param {Iterable<string>} names
 */
export function orderTransports(names) {
  const list = [...new Set(names)];
  const rank = (/** @type {string} */ t) => (isTransport(t) ? TRANSPORTS.indexOf(t) : TRANSPORTS.length + list.indexOf(t));
  return list.sort((a, b) => rank(a) - rank(b));
}

/**
 * The ratio cells a set of transports gives, the headline first: every transport but TCP, against TCP (none without TCP).
 * @param {Iterable<string>} names
 */
export function ratiosOf(names) {
  const list = orderTransports(names);
  return list.includes(BASELINE) ? list.filter((t) => t !== BASELINE).map(ratioOf) : [];
}

/**
 * The message transports' targets, `{ transport: NAME }`: no address, as each trial starts its own echo peer.
 * @returns {Record<string, import('./transport.js').MessageTarget>}
 */
export function channelTargets() {
  return Object.fromEntries(TRANSPORTS.filter((name) => TRANSPORT_DECLARATIONS[name].channel).map((name) => [name, { transport: name }]));
}
