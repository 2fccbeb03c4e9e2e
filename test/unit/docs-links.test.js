/**
 * The README is the front door and docs/ holds the depth: every relative link
 * and #anchor in README.md, docs/*.md and sweeps/README.md must lead somewhere (headings slugged
 * as GitHub does), the README stays within 16 KB, and no document names a
 * path of the machine it was written on.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOCS = [join(ROOT, 'README.md'), join(ROOT, 'sweeps', 'README.md'), ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(ROOT, 'docs', f))];
const README_LIMIT = 16 * 1024;

/**
 * A document's lines outside fenced code blocks, with inline code spans kept
 * as text (GitHub keeps their text in a heading's slug) or dropped (for links).
 * @param {string} text
 */
function proseLines(text) {
  /** @type {string[]} */
  const lines = [];
  let fence = null;
  for (const line of text.split('\n')) {
    const open = /^\s*(```|~~~)/.exec(line);
    if (open) {
      if (fence === null) fence = open[1];
      else if (open[1] === fence) fence = null;
      continue;
    }
    if (fence === null) lines.push(line);
  }
  return lines;
}

/**
 * GitHub's heading anchor (as github-slugger makes it): the heading's text,
 * lower-cased, everything but letters, digits, marks, spaces, `-` and `_`
 * removed, each space a hyphen; a repeated slug gets -1, -2, ….
 * @param {string} heading the heading's Markdown source, without the #s
 */
function slug(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/`/g, '')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** @param {string} text */
function anchorsOf(text) {
  const anchors = new Set();
  /** @type {Map<string, number>} */
  const seen = new Map();
  for (const line of proseLines(text)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** @param {string} text */
function linksOf(text) {
  /** @type {string[]} */
  const links = [];
  for (const line of proseLines(text)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push(m[1]);
  }
  return links;
}

/**
 * Every broken relative link or anchor of one document, as `target: why`.
 * @param {string} file
 */
function brokenLinks(file) {
  const problems = [];
  for (const link of linksOf(readFileSync(file, 'utf8'))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:
    const [path, anchor] = link.split('#', 2);
    const target = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
    if (!existsSync(target)) {
      problems.push(`${link}: no such file`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!statSync(target).isFile() || !target.endsWith('.md')) {
      problems.push(`${link}: an anchor into something that is not a Markdown file`);
    } else if (!anchorsOf(readFileSync(target, 'utf8')).has(anchor)) {
      problems.push(`${link}: no heading #${anchor} in ${relative(ROOT, target)}`);
    }
  }
  return problems;
}

describe('GitHub heading slugs', () => {
  it('are made as GitHub makes them', () => {
    expect(slug('Opening the CSV in a spreadsheet')).toBe('opening-the-csv-in-a-spreadsheet');
    expect(slug('echo — the 2014 sweep and the 2019 latency test')).toBe('echo--the-2014-sweep-and-the-2019-latency-test');
    expect(slug('`udsvstcp report DIR`')).toBe('udsvstcp-report-dir');
    expect(slug('blocks.csv')).toBe('blockscsv');
    expect(slug('How precise, and how honest')).toBe('how-precise-and-how-honest');
    expect(slug('lib/ by concern')).toBe('lib-by-concern');
    expect(slug('run_id and [the link](x.md)')).toBe('run_id-and-the-link');
  });

  it('number a repeated heading', () => {
    expect([...anchorsOf('# A\n## B\n## B\n```\n## C\n```\n')]).toEqual(['a', 'b', 'b-1']);
  });
});

describe('the checker', () => {
  it('finds links outside code, and none inside code', () => {
    expect(linksOf('see [a](x.md#y) and ![b](c.svg "t")\n`[no](z.md)`\n```\n[no](w.md)\n```\n')).toEqual(['x.md#y', 'c.svg']);
  });
});

describe.each(DOCS.map((file) => [relative(ROOT, file), file]))('%s', (_name, file) => {
  it('has every relative link and #anchor resolving', () => {
    expect(brokenLinks(file)).toEqual([]);
  });

  it('names no path of the machine it was written on', () => {
    expect(readFileSync(file, 'utf8')).not.toMatch(/(^|[\s`(])\/(work|root|farm)\//m);
  });
});

describe('README.md', () => {
  it(`is the front door: at most ${README_LIMIT} bytes, with links into docs/`, () => {
    const readme = readFileSync(join(ROOT, 'README.md'));
    expect(readme.length).toBeLessThanOrEqual(README_LIMIT);
    const links = linksOf(readme.toString('utf8'));
    for (const doc of ['cli', 'results', 'workloads', 'method', 'validation', 'architecture']) {
      expect(links.some((l) => l.startsWith(`docs/${doc}.md`))).toBe(true);
    }
  });

  it('says in its set-up section which Node versions measured the figures: every one the example sweeps ran under', () => {
    const examples = join(ROOT, 'sweeps', 'examples');
    const versions = new Set(readdirSync(examples).flatMap((d) => {
      const summary = join(examples, d, 'summary.md');
      return existsSync(summary) ? [...readFileSync(summary, 'utf8').matchAll(/\bnode (v\d+\.\d+\.\d+)/gi)].map((m) => m[1].slice(1)) : [];
    }));
    expect(versions.size).toBeGreaterThan(0);
    const setUp = /^## Set-up\n([\s\S]*?)^## /m.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'))?.[1] ?? '';
    for (const version of versions) expect(setUp, version).toContain(`Node ${version}`);
  });
});
