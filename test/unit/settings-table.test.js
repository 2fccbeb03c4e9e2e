/**
 * The settings table (lib/options/settings.js) is what the commands take and
 * enforce: every setting with a flag is an option of its command, every range
 * and choice the table states is the one a spec file is held to, and a value
 * outside it is one line naming the key and what it accepts.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../lib/core/errors.js';
import { LIST, SPEC_FLAGS, SPEC_KEYS, SETTINGS, acceptsOf, viewOf } from '../../lib/options/settings.js';
import { resolveSpec } from '../../lib/sweep/spec.js';
import { TRANSPORTS } from '../../lib/transports/index.js';
import { WORKLOADS, WORKLOAD_NAMES } from '../../lib/workloads/index.js';
import { callMain } from '../helpers/cli.js';

const resolveRaw = (/** @type {Record<string, unknown>} */ raw) => resolveSpec({ name: 'x', source: 'x.json', raw: { sizes: [64], ...raw } });

/** @param {() => unknown} fn */
function usageError(fn) {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return /** @type {Error} */ (error).message;
  }
  throw new Error('no error');
}

describe('the settings table', () => {
  it.each(/** @type {const} */ (['sweep', 'run', 'serve']))('gives %s --help every option it declares for it, and the registries\' names', async (command) => {
    const { code, stdout } = await callMain([command, '--help']);
    expect(code).toBe(0);
    const text = stdout.replace(/\s+/g, ' ');
    for (const s of LIST.filter((x) => x.cmd[command])) expect(text).toContain(`${viewOf(s, command).flag} `);
    for (const name of [...(command === 'serve' ? [] : TRANSPORTS), ...WORKLOAD_NAMES]) expect(text).toContain(name);
  });

  it('makes SPEC_FLAGS of the spec keys that sweep takes as flags', () => {
    expect(SPEC_FLAGS.length).toBeGreaterThan(15);
    for (const key of SPEC_FLAGS) expect(SPEC_KEYS).toContain(key);
    expect(SPEC_FLAGS).not.toContain('test');
    expect(SPEC_FLAGS).not.toContain('noDelay'); // a key without a sweep flag
  });

  const ranged = SPEC_KEYS.filter((k) => SETTINGS[k].range);
  it.each(ranged)('holds spec key %s to the range it states, naming the key and the range', (key) => {
    const { range, kind, applies } = SETTINGS[key];
    if (!range) throw new Error('no range');
    const workload = WORKLOAD_NAMES.find((n) => !applies || applies(WORKLOADS[n])); // one it applies to
    const value = (/** @type {number} */ n) => ({ workload, [key]: kind === 'time' ? `${n}ms` : n });
    for (const ok of [range.min, range.max]) expect(() => resolveRaw(value(ok))).not.toThrow(/must be a (whole number|duration)/);
    const message = usageError(() => resolveRaw(value(range.max + 1)));
    const min = kind === 'time' && range.min < 1 ? `${range.min * 1000} µs` : range.min; // under a millisecond, in µs
    expect(message).toMatch(new RegExp(`^x\\.json "${key}" must be a (whole number|duration) from ${min}`));
    expect(acceptsOf(SETTINGS[key])).toMatch(/ to /);
  });

  const choices = SPEC_KEYS.filter((k) => SETTINGS[k].choices);
  it.each(choices)('holds spec key %s to its choices, naming them', (key) => {
    // in a spec of a workload it applies to
    const applies = SETTINGS[key].applies;
    const workload = applies ? { workload: WORKLOAD_NAMES.find((n) => applies(WORKLOADS[n])) } : {};
    for (const choice of SETTINGS[key].choices ?? []) expect(resolveRaw({ ...workload, [key]: choice })).toBeTruthy();
    expect(usageError(() => resolveRaw({ ...workload, [key]: 'nope' }))).toBe(`x.json "${key}" must be ${SETTINGS[key].accepts}; got "nope"`);
  });
});
