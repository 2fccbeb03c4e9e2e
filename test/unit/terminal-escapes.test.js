/**
 * Text for the terminal has its controls escaped, whatever a results
 * directory's name or cells or an argument hold; data outputs (--json, the
 * results) keep them as they are. main() runs in this process, its output
 * decoded as UTF-8 (so a control is a character here where the binary
 * would write its bytes); nothing is left running.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/cli.js';
import { callMainLeavingNothing, expectRefused } from '../helpers/in-process.js';
import { ENVIRONMENT, errorRow, okRow, writeResults } from '../helpers/results-fixture.js';

/** Terminal controls a hostile cell or path could carry: C0, DEL, C1, separators, bidi overrides and isolates. */
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u; // eslint-disable-line no-control-regex

/** Retitle the window, clear the screen, reverse the line. */
const HOSTILE_DIR = 'sweep\u001b]0;pwned\u0007\u001b[2J\u202e';
/** Red text, a C1 CSI, a line separator. */
const HOSTILE_ERROR = 'connect \u001b[31mECONNREFUSED\u009b2J\u2028done';

/** @type {{ dir: string, remove: () => Promise<void> }} */
let tmp;
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.remove());

describe('data shown on the terminal has its control characters escaped; data outputs are not altered', () => {
  it('report of a directory whose name and a trials.csv cell hold ESC sequences prints them as \\x1b on stderr', async () => {
    const dir = join(tmp.dir, HOSTILE_DIR);
    await mkdir(dir);
    const spec = { sizes: [64], depths: [1], transports: ['tcp', 'uds'], runs: 2 };
    await writeResults(dir, [okRow(0, 'tcp', 64, 1, 10000), okRow(0, 'uds', 64, 1, 14000), okRow(1, 'tcp', 64, 1, 10500), errorRow(1, 'uds', 64, 1, HOSTILE_ERROR)], { status: 'complete', trials_planned: 4, environment: ENVIRONMENT, spec });
    const csvBefore = await readFile(join(dir, 'trials.csv'));

    const { code, stdout, stderr: text } = await callMainLeavingNothing(['report', dir, '--json']);
    expect(code, text).toBe(0);
    expect(text.includes('\u001b'), text).toBe(false); // no raw ESC
    expect(text.includes('\u0007'), text).toBe(false); // no raw BEL
    expect(text).not.toMatch(CONTROLS);
    expect(text).toContain('sweep\\x1b]0;pwned\\x07\\x1b[2J\\u202e'); // the path, escaped
    expect(text).toContain('connect \\x1b[31mECONNREFUSED\\x9b2J\\u2028done'); // the cell, escaped

    // JSON on stdout escapes itself and keeps the data as it is
    const document = JSON.parse(stdout);
    expect(document.dir).toBe(dir);
    expect(document.warnings.join('\n')).toContain(HOSTILE_ERROR);
    // the results are data: untouched
    expect(await readFile(join(dir, 'trials.csv'))).toEqual(csvBefore);
  });

  it('an error message quoting a hostile argument is one line with the controls escaped', async () => {
    const { stderr: text } = await expectRefused(['report', join(tmp.dir, 'missing\u001b[2J\nline')], 'missing\\x1b[2J\\nline');
    expect(text.includes('\u001b'), text).toBe(false);
  });
});
