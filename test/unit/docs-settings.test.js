/**
 * The settings tables of docs/cli.md and sweeps/README.md are made from
 * lib/options/settings.js (`npm run docs:settings`): a document that differs
 * from the table fails here. Every preset in sweeps/ is listed in both.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listPresets } from '../../lib/sweep/spec.js';
import { DOCUMENTS, settingsTables, withTables } from '../helpers/settings-tables.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (/** @type {string} */ file) => readFileSync(`${ROOT}${file}`, 'utf8');

describe('docs hold the settings table as lib/options/settings.js declares it', () => {
  it.each(Object.keys(DOCUMENTS))('%s (if not: npm run docs:settings)', (file) => {
    expect(read(file)).toBe(withTables(file));
  });

  it('a changed setting changes the tables', () => {
    const tables = settingsTables();
    expect(tables.sweep).toContain('| `--runs <n>` | `runs` |');
    expect(tables.keys).toContain('| `runs` | `--runs <n>` |');
    expect(tables.run).toContain('| `--transport <list>` |');
    const stale = read('docs/cli.md').replace(/\| 1 to 1000 \|/, '| 1 to 999 |');
    expect(withTables('docs/cli.md', stale)).not.toBe(stale);
  });
});

describe('every preset in sweeps/ is listed', () => {
  const presets = listPresets();
  it.each(presets)('%s in docs/cli.md and in sweeps/README.md', (preset) => {
    expect(read('docs/cli.md')).toContain(`\`${preset}\``);
    expect(read('sweeps/README.md')).toMatch(new RegExp(`^\\| \`${preset.replace(/[.-]/g, '\\$&')}\` \\|`, 'm'));
  });
});
