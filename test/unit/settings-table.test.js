/**
 * The settings table (lib/options/settings.js) is what the commands take and
 * enforce: every setting with a flag is an option of its command, every range
 * and choice the table states is the one a spec file is held to, and a value
 * outside it is one line naming the key and what it accepts.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../lib/core/errors.js';
import { LIST, SPEC_FLAGS, SPEC_KEYS, SETTINGS, acceptsOf, parseSetting, viewOf } from '../../lib/options/settings.js';
import { resolveSpec } from '../../lib/sweep/spec.js';
import { TRANSPORTS } from '../../lib/transports/index.js';
import { WORKLOADS, WORKLOAD_NAMES } from '../../lib/workloads/index.js';
import { callMain } from '../helpers/cli.js';

/** A key's flag, as a regular expression. @param {string} key */
const toFlagText = (key) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

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

  it('lists run --help\'s transports and workloads with their descriptions in one column, two spaces at least after the longest name', async () => {
    const { stdout } = await callMain(['run', '--help']);
    const names = [...TRANSPORTS, ...WORKLOAD_NAMES];
    const width = Math.max(...names.map((n) => n.length)) + 2;
    for (const name of names) {
      const line = stdout.split('\n').find((l) => l.startsWith(`  ${name} `));
      expect(line, name).toBeDefined();
      expect(/** @type {string} */ (line).slice(2, 2 + width), name).toBe(name.padEnd(width)); // postgres-rate ran into its description
      expect(/** @type {string} */ (line)[2 + width], name).not.toBe(' ');
    }
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
    const min = kind === 'time' ? acceptsOf(SETTINGS[key]) : range.min; // a time's range as the help writes it: 1 s to 24 h
    expect(message).toMatch(new RegExp(`^x\\.json "${key}" must be a (whole number|duration) from ${min}`));
    expect(acceptsOf(SETTINGS[key])).toMatch(/ to /);
  });

  const times = LIST.filter((s) => s.kind === 'time').map((s) => s.key);
  it.each(times)('takes the time setting %s in the words its range is shown in, and refuses naming that range', (key) => {
    const s = SETTINGS[key];
    const [low, high] = acceptsOf(s).split(' to ');
    // "10 ms to 1 h", "1 s to 24 h", "10 ms to 10 min" as typed: 1h and 10min were refused (NaN)
    for (const [shown, ms] of /** @type {[string, number][]} */ ([[low, s.range?.min], [high, s.range?.max]])) expect(parseSetting(key, shown.replace(' ', ''))).toBeCloseTo(ms, 9);
    // the refusal writes the range as the help and the docs do (it said "from 10 ms to 3600 s")
    expect(usageError(() => parseSetting(key, 'nope'))).toMatch(new RegExp(`^${toFlagText(key)} must be a duration from ${acceptsOf(s)} \\(`));
  });

  it('takes --duration 1h and --max-time 2h, as the help says', () => {
    expect(parseSetting('duration', '1h')).toBe(3_600_000);
    expect(parseSetting('maxTime', '2h')).toBe(7_200_000);
    expect(parseSetting('maxTime', '90min')).toBe(5_400_000);
  });

  // every spec key of a JSON type: a value of the wrong one names the key, the JSON type wanted and, where the key has
  // one, its range ("runs" said "a whole number (3)", its example read as a required value)
  const typed = SPEC_KEYS.filter((k) => k !== 'test' && k !== 'node');
  it.each(typed)('refuses spec key %s of the wrong JSON type, naming the key, the type and its range', (key) => {
    const s = SETTINGS[key];
    const workload = WORKLOAD_NAMES.find((n) => !s.applies || s.applies(WORKLOADS[n]));
    let error;
    try {
      resolveRaw({ workload, [key]: { x: 1 } });
    } catch (e) {
      error = /** @type {UsageError} */ (e);
    }
    expect(error).toBeInstanceOf(UsageError);
    expect(error?.code).toBe('ERR_SPEC_TYPE');
    const message = error?.message ?? '';
    expect(message).toMatch(new RegExp(`^x\\.json "${key}" must be .+; got \\{"x":1\\}$`));
    expect(message).not.toMatch(/\(\d+\)/); // no bare example number, as if it were the value wanted
    if (s.kind === 'integer') expect(message).toContain(`must be a JSON number, a whole number from ${s.range?.min} to ${s.range?.max}`);
    if (s.kind === 'time') expect(message).toContain(`must be a duration from ${acceptsOf(s)}, a JSON string`);
    // in the test block alike
    expect(usageError(() => resolveRaw({ workload, test: { [key]: { x: 1 } } }))).toBe(message.replace(`"${key}"`, `"test.${key}"`));
  });

  it('refuses a "test" block inside the test block, naming test.test', () => {
    expect(usageError(() => resolveRaw({ test: { test: {} } }))).toBe('x.json "test.test": a "test" block holds the keys it changes for --test, not another "test" block');
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
