/**
 * JSON types of spec-file keys, checked before their values are parsed, so
 * `"runs": [3]` or `"pin": ["split"]` is refused naming the key instead of
 * being read through String(). Flags are strings and are not checked here.
 * Keys not listed (new ones) are left to their own validation.
 */
import { UsageError } from '../core/errors.js';

/** @typedef {'number' | 'string' | 'boolean' | 'null' | 'list'} JsonType */

/** @type {Record<string, { types: JsonType[], items?: ('number' | 'string')[], says: string }>} */
const TYPES = {
  description: { types: ['string'], says: 'text' },
  workload: { types: ['string'], says: 'a workload name such as "echo"' },
  sizes: { types: ['list', 'string'], items: ['number', 'string'], says: 'a list of sizes ([1, 64, "1KiB"]) or a range string ("1..16384")' },
  depths: { types: ['list', 'string'], items: ['number', 'string'], says: 'a list of whole numbers ([1, 16])' },
  transports: { types: ['list', 'string'], items: ['string'], says: 'a list of transport names ("tcp", "uds", "uds-abstract")' },
  runs: { types: ['number'], says: 'a whole number (3)' },
  packets: { types: ['number', 'null'], says: 'a whole number (100000)' },
  duration: { types: ['string', 'number', 'null'], says: 'a time ("500ms", "2s")' },
  warmup: { types: ['number', 'string'], says: 'a packet count (1000) or a time ("50ms")' },
  seed: { types: ['number', 'null'], says: 'a whole number or null' },
  pin: { types: ['string'], says: '"none", "split" or "same"' },
  noDelay: { types: ['boolean'], says: 'true or false' },
  greeting: { types: ['boolean'], says: 'true or false' },
  pipelining: { types: ['number'], says: 'a whole number (1)' },
  keepalive: { types: ['boolean'], says: 'true or false' },
  timeout: { types: ['string', 'number'], says: 'a time ("5s")' },
  trialTimeout: { types: ['string', 'number', 'null'], says: 'a time ("10m") or null' },
  pairing: { types: ['string'], says: '"blocks" or "trials"' },
  server: { types: ['string'], says: '"sweep" or "round"' },
  intervals: { types: ['string'], says: '"moderated" or "own"' },
  block: { types: ['string', 'number'], says: 'a time ("10ms")' },
  precision: { types: ['string', 'number', 'null'], says: 'a percentage ("3%") or a fraction (0.03), or null' },
  maxTime: { types: ['string', 'number', 'null'], says: 'a time ("80s") or null' },
  serverNetns: { types: ['boolean'], says: 'true or false' },
  portProxy: { types: ['boolean'], says: 'true or false' },
  node: { types: ['list', 'string', 'null'], items: ['string'], says: 'a list of Node executables, each a path or a name on PATH (["node", "/tmp/n26/node_modules/.bin/node"]), or null' },
};

/** @param {unknown} value @returns {JsonType | 'object'} */
function typeOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  const t = typeof value;
  return t === 'number' || t === 'string' || t === 'boolean' ? t : 'object';
}

/**
 * @param {Record<string, unknown>} layer keys of a spec file (or its test block)
 * @param {(key: string) => string} name how to name a key in a message, e.g. `x.json "runs"`
 */
export function checkSpecTypes(layer, name) {
  for (const [key, value] of Object.entries(layer)) {
    const rule = TYPES[key];
    if (!rule || value === undefined) continue;
    const type = typeOf(value);
    const itemsOk = type !== 'list' || /** @type {unknown[]} */ (value).every((v) => rule.items?.includes(/** @type {any} */ (typeOf(v))));
    if (!rule.types.includes(/** @type {JsonType} */ (type)) || !itemsOk) {
      throw new UsageError(`${name(key)} must be ${rule.says}; got ${JSON.stringify(value)}`, 'ERR_SPEC_TYPE');
    }
  }
}
