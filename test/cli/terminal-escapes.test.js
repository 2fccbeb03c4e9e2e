import { spawn } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, makeTempDir } from '../helpers/cli.js';
import { ENVIRONMENT, errorRow, okRow, writeResults } from '../helpers/results-fixture.js';

/** Terminal controls a hostile cell or path could carry: C0, DEL, C1, separators, bidi overrides and isolates. */
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u; // eslint-disable-line no-control-regex

/** Retitle the window, clear the screen, reverse the line. */
const HOSTILE_DIR = 'sweep\u001b]0;pwned\u0007\u001b[2J\u202e';
/** Red text, a C1 CSI, a line separator. */
const HOSTILE_ERROR = 'connect \u001b[31mECONNREFUSED\u009b2J\u2028done';

/**
 * Run the real binary, keeping stdout and stderr as bytes.
 * @param {string[]} args
 * @returns {Promise<{ code: number | null, stdout: Buffer, stderr: Buffer }>}
 */
function runBytes(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    /** @type {Buffer[]} */
    const out = [];
    /** @type {Buffer[]} */
    const err = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }));
  });
}

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

    const { code, stdout, stderr } = await runBytes(['report', dir, '--json']);
    const text = stderr.toString('utf8');
    expect(code, text).toBe(0);
    expect(stderr.includes(0x1b), text).toBe(false); // no raw ESC byte
    expect(stderr.includes(0x07), text).toBe(false); // no raw BEL byte
    expect(text).not.toMatch(CONTROLS);
    expect(text).toContain('sweep\\x1b]0;pwned\\x07\\x1b[2J\\u202e'); // the path, escaped
    expect(text).toContain('connect \\x1b[31mECONNREFUSED\\x9b2J\\u2028done'); // the cell, escaped

    // JSON on stdout escapes itself and keeps the data as it is
    const document = JSON.parse(stdout.toString('utf8'));
    expect(document.dir).toBe(dir);
    expect(document.warnings.join('\n')).toContain(HOSTILE_ERROR);
    // the results are data: untouched
    expect(await readFile(join(dir, 'trials.csv'))).toEqual(csvBefore);
  });

  it('an error message quoting a hostile argument is one line with the controls escaped', async () => {
    const { code, stdout, stderr } = await runBytes(['report', join(tmp.dir, 'missing\u001b[2J\nline')]);
    const text = stderr.toString('utf8');
    expect(code, text).toBe(2);
    expect(stdout.length).toBe(0);
    expect(stderr.includes(0x1b), text).toBe(false);
    expect(text.trimEnd().split('\n'), text).toHaveLength(1);
    expect(text).toContain('missing\\x1b[2J\\nline');
  });
});
