/**
 * The output schemas, pinned by fixture files in test/fixtures/schema/:
 *  - <workload>/trials.csv, blocks.csv, summary.csv, runs-wide.csv: the header
 *    line each file has after `sweep <preset> --test` of that workload;
 *  - <workload>/run.json: the keys of a `run --json` record, in order;
 *  - report-json.json: the key paths of `report --json` (sorted; `[]` an
 *    array's elements, `*` a figure's name).
 * Tests compare what the real CLI writes with these files, never with the
 * code's own constants (recordFields, SUMMARY_COLUMNS…): a column renamed,
 * dropped, added or moved fails a test, as it would break a user's script.
 *
 * To change a schema on purpose, make the change, then write the fixtures
 * again from the real CLI and read their diff as the change users will see:
 *   for p in quick eliben-2019-throughput myhro-2017-connect myhro-2017-http myhro-2017-nginx postgres; do
 *     node bin/udsvstcp.js sweep $p --test --out /tmp/schema-$p --quiet
 *   done
 *   # then, per workload W (echo, stream, connect, http, proxy, postgres) and its preset P:
 *   for f in trials blocks summary runs-wide; do head -1 /tmp/schema-P/$f.csv > test/fixtures/schema/W/$f.csv; done
 *   node bin/udsvstcp.js run --workload W --duration 50ms --warmup 10ms --json | head -1 \
 *     | node -e 'process.stdin.on("data", (d) => console.log(JSON.stringify(Object.keys(JSON.parse(d)))))' > test/fixtures/schema/W/run.json
 *   node bin/udsvstcp.js report /tmp/schema-quick --json --out /tmp \
 *     | node --input-type=module -e 'import { keyPaths } from "./test/helpers/schema.js"; let t = ""; process.stdin.on("data", (d) => { t += d; }).on("end", () => console.log(JSON.stringify(keyPaths(JSON.parse(t)), null, 2)))' > test/fixtures/schema/report-json.json
 * The workloads without a preset are swept by name: redis-rate's with
 *   node bin/udsvstcp.js sweep --workload redis-rate --sizes 16 --depths 300 --runs 1 --test --out /tmp/schema-redis-rate --quiet
 * (one RUN column), and postgres-rate pins its run.json only.
 * (runs-wide.csv's fixture has the two RUN columns of a --test sweep.) Say the
 * change in the README and the version.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';

const FIXTURES = new URL('../fixtures/schema/', import.meta.url);

/** The results files whose header lines are pinned. */
export const PINNED_FILES = /** @type {const} */ (['trials.csv', 'blocks.csv', 'summary.csv', 'runs-wide.csv']);

/**
 * A fixture file's text.
 * @param {string} path under test/fixtures/schema/
 */
export function readSchemaFixture(path) {
  return readFileSync(new URL(path, FIXTURES), 'utf8');
}

/**
 * The first line of a file.
 * @param {string} path
 */
async function headerOf(path) {
  return (await readFile(path, 'utf8')).split('\n')[0];
}

/**
 * Expect the results directory's CSV header lines to be the workload's fixtures.
 * runs-wide.csv has a RUN column per run: runs past the fixture's (added to
 * reach a --precision) follow on, named the same way.
 * @param {string} dir a results directory
 * @param {string} workload
 */
export async function expectPinnedHeaders(dir, workload) {
  for (const file of PINNED_FILES) {
    const pinned = readSchemaFixture(`${workload}/${file}`).trimEnd().split(',');
    const header = (await headerOf(join(dir, file))).split(',');
    if (file === 'runs-wide.csv' && header.length > pinned.length) {
      pinned.push(...Array.from({ length: header.length - pinned.length }, (_, i) => `RUN ${pinned.length - 1 + i}`));
    }
    expect(header, `${workload} ${file}`).toEqual(pinned);
  }
}

/**
 * Expect a `run --json` record to have the workload's pinned keys, in order.
 * @param {Record<string, unknown>} record
 * @param {string} workload
 */
export function expectPinnedRunKeys(record, workload) {
  expect(Object.keys(record), `${workload} run --json`).toEqual(JSON.parse(readSchemaFixture(`${workload}/run.json`)));
}

/**
 * Every key path of a JSON value, sorted: `a.b` for objects, `a[]` for an
 * array (and `a[].c` for its elements' keys), `*` for a figure's name.
 * @param {unknown} value
 * @returns {string[]}
 */
export function keyPaths(value) {
  /** @type {Set<string>} */
  const paths = new Set();
  /** @param {unknown} v @param {string} path */
  const walk = (v, path) => {
    if (Array.isArray(v)) {
      paths.add(`${path}[]`);
      for (const item of v) if (item !== null && typeof item === 'object') walk(item, `${path}[]`);
    } else if (v !== null && typeof v === 'object') {
      if (Object.keys(v).length === 0) paths.add(path);
      for (const [key, child] of Object.entries(v)) walk(child, `${path ? `${path}.` : ''}${path.endsWith('.figures') ? '*' : key}`);
    } else {
      paths.add(path);
    }
  };
  walk(value, '');
  return [...paths].sort();
}
