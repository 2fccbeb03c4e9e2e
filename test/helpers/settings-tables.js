/**
 * The settings tables of docs/cli.md and sweeps/README.md, made from
 * lib/options/settings.js: each sits between `<!-- settings:NAME -->` and
 * `<!-- /settings -->`. `npm run docs:settings` rewrites them;
 * test/unit/docs-settings.test.js fails when a document differs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LIST, SETTINGS, SPEC_FLAGS, SPEC_KEYS, acceptsOf, viewOf } from '../../lib/options/settings.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** @param {string} text a cell: pipes escaped, no line breaks */
const cell = (text) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
/** @param {string} text a cell of prose: `<` escaped too */
const prose = (text) => cell(text).replace(/</g, '\\<');
/** @param {string} text @returns {string} */
const code = (text) => (text ? `\`${text}\`` : '—');

/**
 * Links in the table are written from the repository's root (`docs/method.md#…`), anchors of docs/cli.md as `#…`.
 * @param {string} text
 * @param {'docs' | 'sweeps'} from the folder of the document
 */
const links = (text, from) => (from === 'docs' ? text.replace(/\]\(docs\//g, '](') : text.replace(/\]\(docs\//g, '](../docs/').replace(/\]\(#/g, '](../docs/cli.md#'));

/**
 * @param {import('../../lib/options/settings.js').Setting} s
 * @param {ReturnType<typeof viewOf>} v
 * @param {'docs' | 'sweeps'} from
 */
function meaning(s, v, from) {
  return prose(links(`${v.workloads ? `${v.workloads}: ` : ''}${v.help}${v.doc ? `${v.doc.startsWith('(') ? ' ' : '. '}${v.doc}` : ''}`, from));
}

/**
 * The tables, by name: `sweep`, `run` and `serve` (docs/cli.md, by flag), `keys` (sweeps/README.md, by spec key).
 * @returns {Record<string, string>}
 */
export function settingsTables() {
  const rows = (/** @type {string[]} */ head, /** @type {string[][]} */ body) => [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...body.map((r) => `| ${r.join(' | ')} |`)].join('\n');
  const byFlag = (/** @type {'sweep' | 'run' | 'serve'} */ command) => rows(
    command === 'sweep' ? ['flag', 'spec key', 'meaning', 'accepted', 'default'] : ['flag', 'meaning', 'accepted', 'default'],
    LIST.filter((s) => s.cmd[command]).map((s) => {
      const v = viewOf(s, command);
      const key = SPEC_FLAGS.includes(s.key) ? code(s.key) : '—';
      return [code(cell(v.flag)), ...(command === 'sweep' ? [key] : []), meaning(s, v, 'docs'), prose(v.accepts) || '—', prose(v.shown) || '—'];
    }),
  );
  const keys = rows(['key', 'flag', 'meaning', 'accepted', 'default'], SPEC_KEYS.map((k) => SETTINGS[k]).map((s) => {
    const v = viewOf(s, 'sweep');
    const flag = s.cmd.sweep ? code(cell(v.flag)) : s.cmd.run ? `run ${code(cell(viewOf(s, 'run').flag))}` : '—';
    const shown = s.shown ?? (s.default === undefined ? '' : JSON.stringify(s.default));
    return [code(s.key), flag, meaning(s, { ...v, help: s.help, doc: s.doc ?? '' }, 'sweeps'), prose(acceptsOf(s) || (s.kind === 'boolean' ? 'true or false' : '')) || '—', shown && s.shown === undefined ? code(shown) : prose(shown) || '—'];
  }));
  return { sweep: byFlag('sweep'), run: byFlag('run'), serve: byFlag('serve'), keys };
}

/** The documents and the tables each holds. */
export const DOCUMENTS = { 'docs/cli.md': ['sweep', 'run', 'serve'], 'sweeps/README.md': ['keys'] };

/**
 * A document with its tables made anew.
 * @param {string} file relative to the repository's root
 * @param {string} [text] its text (default: as on disk)
 */
export function withTables(file, text = readFileSync(`${ROOT}${file}`, 'utf8')) {
  const tables = settingsTables();
  let out = text;
  for (const name of DOCUMENTS[/** @type {keyof typeof DOCUMENTS} */ (file)]) {
    const open = `<!-- settings:${name} -->\n`;
    const start = out.indexOf(open);
    const end = out.indexOf('<!-- /settings -->', start);
    if (start < 0 || end < 0) throw new Error(`${file}: no ${open.trim()} … <!-- /settings --> markers`);
    out = `${out.slice(0, start + open.length)}\n${tables[name]}\n\n${out.slice(end)}`;
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const file of Object.keys(DOCUMENTS)) writeFileSync(`${ROOT}${file}`, withTables(file));
}
