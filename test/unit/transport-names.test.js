/**
 * Transports are data: no transport's name is written in lib/ outside
 * lib/transports/, where each is declared. Everything else iterates the
 * transports of its rows or of the registry, and names TCP, the baseline
 * every ratio is against, through BASELINE (UDS, the headline, through
 * HEADLINE, the pair of both through PAIR). A name in a comment is
 * documentation and is not counted; a name in a string, template or
 * regular expression is.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { TRANSPORTS } from '../../lib/transports/index.js';

const LIB = fileURLToPath(new URL('../../lib/', import.meta.url));

/** Names that are also words of prose ("a worker thread", "nginx worker"): only a literal that is the name alone counts. */
const WORDS = new Set(['worker']);

/**
 * Where names may still be written, each file with the names it holds at most: the settings table declares the
 * flags that give a server not ours by its transport (--tcp, --uds), and it and lib/cli.js hold help prose whose
 * examples name transports. A count may only fall: lower it (or drop the file) as names go.
 * @type {Record<string, number>}
 */
const ALLOWED = {
  'cli.js': 1,
  'options/settings.js': 4,
  // Docker's own key for a published port ("8080/tcp" in docker inspect), a protocol, not our transport
  'fixture/docker.js': 1,
};

const escape = (/** @type {string} */ s) => s.replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&');
const exact = new RegExp(`^(${TRANSPORTS.map(escape).join('|')})$`);
const inText = new RegExp(`(?<![\\w-])(${TRANSPORTS.filter((t) => !WORDS.has(t)).map(escape).join('|')})(?![\\w-])`);

/**
 * The transport names in a source text's literals, with their lines.
 * @param {string} path for messages
 * @param {string} text
 */
function namesIn(path, text) {
  if (!inText.test(text) && ![...WORDS].some((w) => text.includes(w))) return []; // most files: nothing to parse
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  /** @type {string[]} */
  const found = [];
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) || node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = 'text' in node && typeof node.text === 'string' ? node.text : node.getText(source);
      const name = exact.exec(literal)?.[1] ?? inText.exec(literal)?.[1];
      if (name) found.push(`${path}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${name} in ${JSON.stringify(literal.slice(0, 60))}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('transport names', () => {
  const files = readdirSync(LIB, { recursive: true }).map(String).filter((f) => f.endsWith('.js') && !f.startsWith('transports/'));

  it('appear in lib/ only in lib/transports/ (and, no more often than now, in the settings table and help)', () => {
    const over = files.flatMap((file) => {
      const found = namesIn(`lib/${file}`, readFileSync(`${LIB}${file}`, 'utf8'));
      return found.length > (ALLOWED[file] ?? 0) ? found : [];
    });
    expect(over).toEqual([]);
  });

  it('are found in strings, templates and regular expressions, not in comments, and not inside other words', () => {
    const names = namesIn('x.js', [
      "// tcp and uds in a comment",
      "const a = 'tcp';",
      'const b = `${x}/uds`;',
      'const c = /^uds-abstract /;',
      "const d = 'worker';",
      "const e = 'a worker thread, udsvstcp, --tcp, worker_connections';",
    ].join('\n'));
    expect(names.map((n) => n.split(' ').slice(0, 2).join(' '))).toEqual(['x.js:2 tcp', 'x.js:3 uds', 'x.js:4 uds-abstract', 'x.js:5 worker']);
  });
});
