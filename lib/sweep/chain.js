/**
 * Chained presets: a preset whose "parts" name other presets, each swept whole, one after another, into a results
 * directory of its own under the chain's (DIR/<part>/), with DIR/chain.json saying what the chain is and how far it got.
 * A sweep has one workload (each workload's CSV columns are pinned), so a preset over two workloads chains two sweeps.
 * Only the run-wide flags pass to the parts; one that changes a part's plan is refused before anything is created.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { readIfThere, writeFileAtomic } from '../core/files.js';
import { parseJson } from '../core/json-text.js';
import { SPEC_FLAGS, toFlag } from '../options/settings.js';
import { checkPrivateDir } from '../core/ownership.js';
import { listPresets, loadSpec } from './spec.js';

/** The file that makes a results directory a chain's. */
export const CHAIN_FILE = 'chain.json';

/** The spec flags a chain passes to each part: they change how it runs, not what it measures. */
const CHAIN_SPEC_FLAGS = ['seed', 'pin', 'node'];

/** A part's name: a directory name of the chain's results directory. */
const PART_NAME = /^[a-z0-9][a-z0-9-]{0,31}$/;

/**
 * @typedef {object} Chain
 * @property {string} name the chained preset's name
 * @property {string} description
 * @property {{ name: string, preset: string }[]} parts in the order they run
 */

/**
 * Whether `loaded` (from loadSpec) is a chained preset.
 * @param {{ raw: Record<string, unknown> }} loaded
 */
export const isChained = (loaded) => loaded.raw.parts !== undefined;

/**
 * A chained preset, checked: "description" and "parts" only, each part a preset in sweeps/ that is no chain.
 * @param {{ name: string, source: string, raw: Record<string, unknown> }} loaded
 * @returns {Chain}
 */
export function toChain({ name, source, raw }) {
  for (const key of Object.keys(raw)) {
    if (key !== 'description' && key !== 'parts') throw new UsageError(`${source}: a chained preset holds "description" and "parts" only; "${key}" belongs in a part's preset`);
  }
  const { parts, description = '' } = raw;
  if (typeof description !== 'string') throw new UsageError(`${source} "description" must be a string`);
  if (typeof parts !== 'object' || parts === null || Array.isArray(parts) || Object.keys(parts).length === 0) {
    throw new UsageError(`${source} "parts" must be an object of part names and presets, e.g. {"echo": "echo-under-load", "http": "http-under-load"}`);
  }
  const list = Object.entries(parts).map(([part, preset]) => {
    if (!PART_NAME.test(part)) throw new UsageError(`${source} "parts": "${part}" must be a name of lowercase letters, digits and -, up to 32 (it names the part's directory)`);
    if (typeof preset !== 'string' || preset.includes('/') || preset.endsWith('.json')) throw new UsageError(`${source} "parts.${part}" must name a preset in sweeps/; got ${JSON.stringify(preset)}`);
    if (isChained(loadSpec(preset))) throw new UsageError(`${source} "parts.${part}": ${preset} is itself a chained preset; a part is an ordinary sweep`);
    return { name: part, preset };
  });
  return { name, description, parts: list };
}

/**
 * The chain a sweep's options ask for, or null: a chained preset by name or path, or --resume of a chain's directory
 * (record: its chain.json; null for a new chain).
 * @param {Record<string, any>} options sweep()'s options
 * @returns {(Chain & { record: Record<string, any> | null }) | null}
 */
export function chainOf(options) {
  if (options.resume !== undefined) {
    const record = typeof options.resume === 'string' ? readChainFile(options.resume, { flag: '--resume', allowShared: Boolean(options.allowSharedDir) }) : null;
    return record ? { name: record.preset, description: record.description ?? '', parts: record.parts.map((/** @type {any} */ p) => ({ name: p.name, preset: p.preset })), record } : null;
  }
  if (typeof options.preset !== 'string') return null;
  const loaded = loadSpec(options.preset);
  return isChained(loaded) ? { ...toChain(loaded), record: null } : null;
}

/**
 * The flags given to a chain that would change a part's plan: the first, as a refusal (exit 2), or nothing.
 * @param {Chain} chain
 * @param {Record<string, any>} options
 */
export function refuseDesignFlags(chain, options) {
  const flag = [...SPEC_FLAGS, 'rates'].find((key) => !CHAIN_SPEC_FLAGS.includes(key) && options[key] !== undefined);
  if (flag === undefined) return;
  const name = toFlag(flag);
  throw new UsageError(`${name} would change the plan of a part of the chained preset ${chain.name} (${chain.parts.map((p) => `${p.name}: ${p.preset}`).join(', ')}); sweep a part's preset alone to change it, e.g. udsvstcp sweep ${chain.parts[0].preset} ${name} …`);
}

/**
 * DIR/chain.json, or null where there is none. Unless allowShared, a directory (or file) another user could change is
 * refused before anything of it is read.
 * @param {string} dir
 * @param {{ flag: string, allowShared?: boolean }} how flag: what named the directory (--resume, report)
 * @returns {Record<string, any> | null}
 */
export function readChainFile(dir, { flag, allowShared = false }) {
  const path = join(dir, CHAIN_FILE);
  if (!existsSync(path)) return null;
  if (!allowShared) checkPrivateDir(dir, flag);
  const bytes = readIfThere(path, { maxBytes: 64 * 1024, what: 'a chain file', private: !allowShared }, `${path}: cannot read`);
  if (!bytes) return null;
  /** @type {any} */
  let chain;
  try {
    chain = parseJson(bytes.toString('utf8'), 8);
  } catch (error) {
    throw new UsageError(`${path}: malformed JSON: ${/** @type {Error} */ (error).message}`);
  }
  const parts = chain?.parts;
  if (typeof chain?.preset !== 'string' || !Array.isArray(parts) || parts.length === 0
    || !parts.every((p) => typeof p?.name === 'string' && PART_NAME.test(p.name) && typeof p.preset === 'string' && !p.preset.includes('/') && p.dir === p.name)) {
    throw new UsageError(`${path}: not a chain file of udsvstcp (it needs "preset" and "parts", each with name, preset and dir)`);
  }
  // a results directory never selects code or a spec: its chain must be one udsvstcp ships, its parts that chain's
  const chains = listPresets().filter((name) => isChained(loadSpec(name)));
  if (!chains.includes(chain.preset)) throw new UsageError(`${path}: "preset" ${JSON.stringify(chain.preset).slice(0, 80)} is not a chained preset of udsvstcp (${chains.join(', ')}); it was edited by hand`);
  const names = parts.map((p) => p.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw new UsageError(`${path}: the part "${twice}" is named twice; it was edited by hand`);
  const shipped = toChain(loadSpec(chain.preset)).parts;
  if (parts.length !== shipped.length || parts.some((p, i) => p.name !== shipped[i].name || p.preset !== shipped[i].preset)) {
    throw new UsageError(`${path}: its parts (${parts.map((p) => `${p.name}: ${JSON.stringify(p.preset)}`).join(', ').slice(0, 200)}) are not those of the chained preset ${chain.preset} (${shipped.map((p) => `${p.name}: ${p.preset}`).join(', ')}); it was edited by hand`);
  }
  return chain;
}

/**
 * Write DIR/chain.json whole.
 * @param {string} dir
 * @param {Record<string, unknown>} chain
 */
export function writeChainFile(dir, chain) {
  writeFileAtomic(join(dir, CHAIN_FILE), `${JSON.stringify(chain, null, 2)}\n`);
}
