/**
 * What --node accepts, in process: findNode() runs each candidate for real
 * (scripts written here, /bin/true, this Node) and refuses, with one line
 * naming --node, what does not run JavaScript as Node does, what prints
 * nothing, and a Node older than package.json's engines, a pre-release of
 * the minimum included.
 */
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../lib/core/errors.js';
import { compareVersions, enginesMinimum, findNode } from '../../lib/core/node-executables.js';
import { useTempDir } from '../helpers/temp.js';

const tmp = useTempDir();

/** A script that prints these versions as Node's process.versions would, whatever it is asked. */
const versionsScript = (/** @type {string} */ node) => `#!/bin/sh\necho '${JSON.stringify({ node, v8: '14.6.202.34-node.34', uv: '1.52.1' })}'\n`;

/** @type {Record<string, string>} */
const files = {};
beforeAll(async () => {
  const make = async (/** @type {string} */ name, /** @type {string} */ text) => {
    files[name] = join(tmp.dir, name);
    await writeFile(files[name], text);
    await chmod(files[name], 0o755);
  };
  await make('fake-node-26.sh', versionsScript('26.10.0'));
  await make('fake-node-pre.sh', versionsScript(`${enginesMinimum().min.join('.')}-pre`));
  await make('silent-ok.sh', '#!/bin/sh\nexit 0\n');
});

/**
 * The UsageError findNode throws.
 * @param {string} given
 */
function refusal(given) {
  try {
    findNode(given);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    const message = /** @type {Error} */ (error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error(`findNode(${given}) accepted it`);
}

describe('findNode', () => {
  it('accepts this Node, with its versions', () => {
    expect(findNode(process.execPath)).toEqual({ given: process.execPath, path: process.execPath, version: process.version, v8: process.versions.v8, libuv: process.versions.uv });
  });

  it('refuses a program that prints Node-like versions but runs no JavaScript', () => {
    expect(refusal(files['fake-node-26.sh'])).toMatch(/^--node \S+fake-node-26\.sh: not Node: `\S+ -e <a line of JavaScript>` printed Node-like versions but not what the line computes: it does not run JavaScript$/);
  });

  it('says a program that prints nothing printed nothing', () => {
    expect(refusal('/bin/true')).toMatch(/^--node \/bin\/true: not Node: `\/bin\/true -e <a line of JavaScript>` printed nothing$/);
    expect(refusal(files['silent-ok.sh'])).toMatch(/printed nothing$/);
  });

  it('refuses a pre-release of the minimum version: it comes before the release engines asks for', () => {
    const { text, min } = enginesMinimum();
    expect(refusal(files['fake-node-pre.sh'])).toBe(`--node ${files['fake-node-pre.sh']} is Node v${min.join('.')}-pre; udsvstcp needs Node ${text} (package.json engines; a pre-release comes before its release)`);
  });
});

describe('versions against engines', () => {
  it('orders a pre-release before its release, and pre-releases by their tags', () => {
    expect(compareVersions('v20.19.0-pre', '20.19.0')).toBeLessThan(0);
    expect(compareVersions('20.19.0', 'v20.19.0-rc.1')).toBeGreaterThan(0);
    expect(compareVersions('v20.19.0-rc.1', 'v20.19.0-rc.2')).toBeLessThan(0);
    expect(compareVersions('v20.19.0-rc.1', 'v20.19.0-rc.1')).toBe(0);
    expect(compareVersions('v20.19.1-pre', 'v20.19.0')).toBeGreaterThan(0);
    expect(compareVersions('v20.20.2', 'v20.9.9')).toBeGreaterThan(0);
  });

  it('a pre-release of the minimum comes before it; the minimum and this Node do not', () => {
    const min = enginesMinimum().min.join('.');
    expect(compareVersions(`v${min}-pre`, min)).toBeLessThan(0);
    expect(compareVersions(`v${min}`, min)).toBe(0);
    expect(compareVersions(process.version, min)).toBeGreaterThanOrEqual(0);
  });
});
