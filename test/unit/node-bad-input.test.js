/**
 * --node (sweep and run) and the spec key `node`: every executable is found
 * and asked what it is before anything starts. What is not an executable,
 * not Node (a script that only prints Node-like versions included), older than package.json's engines, not found, or the same
 * version twice is refused: exit 2, one line naming --node (or the key),
 * nothing started, nothing created. main() runs in this process (the
 * executables it asks are real processes); it leaves nothing running.
 */
import { chmod, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectRefused } from '../helpers/in-process.js';
import { useTempDir } from '../helpers/temp.js';

const tmp = useTempDir();

/** @type {Record<string, string>} */
const files = {};
beforeAll(async () => {
  const make = async (/** @type {string} */ name, /** @type {string} */ text, /** @type {number} */ mode) => {
    files[name] = join(tmp.dir, name);
    await writeFile(files[name], text);
    await chmod(files[name], mode);
  };
  await make('readme.txt', 'not a program\n', 0o644);
  await make('text-x', 'not a program either\n', 0o755);
  await make('not-node.sh', '#!/bin/sh\necho hello\n', 0o755);
  await make('old-node.sh', `#!/bin/sh\necho '${JSON.stringify({ node: '18.20.4', v8: '10.2.154.26-node.36', uv: '1.44.2' })}'\n`, 0o755);
  await make('silent.sh', '#!/bin/sh\nexit 3\n', 0o755);
  await make('fake-node.sh', `#!/bin/sh\necho '${JSON.stringify({ node: '26.10.0', v8: '14.6.202.34-node.34', uv: '1.52.1' })}'\n`, 0o755);
  files.same = join(tmp.dir, 'same-node');
  await symlink(process.execPath, files.same);
});

/** @param {string} name */
const outOf = (name) => join(tmp.dir, `out-${name}`);

describe('sweep --node refuses before anything starts', () => {
  /** @type {[string, () => string, RegExp][]} */
  const cases = [
    ['a file that is not executable', () => files['readme.txt'], /^udsvstcp: error: --node \S+readme\.txt: not an executable file; give the path of a Node executable or a name on PATH/],
    ['an executable text file', () => files['text-x'], /--node \S+text-x: not Node: `\S+ -e <a line of JavaScript>` (could not be run \(|exited with code \d+$)/m],
    ['a script that is not Node', () => files['not-node.sh'], /--node \S+not-node\.sh: not Node: `\S+ -e <a line of JavaScript>` printed something else \("hello"\)$/m],
    ['a script that prints Node-like versions', () => files['fake-node.sh'], /--node \S+fake-node\.sh: not Node: `\S+ -e <a line of JavaScript>` printed Node-like versions but not what the line computes: it does not run JavaScript$/m],
    ['a program that fails', () => files['silent.sh'], /--node \S+silent\.sh: not Node: .* exited with code 3$/m],
    ['a Node older than package.json engines', () => files['old-node.sh'], /--node \S+old-node\.sh is Node v18\.20\.4; udsvstcp needs Node >=20\.19 \(package\.json engines\)/],
    ['a path that does not exist', () => join(tmp.dir, 'nowhere', 'node'), /--node \S+nowhere\/node: no such file/],
    ['a name not on PATH', () => 'udsvstcp-no-such-node', /--node udsvstcp-no-such-node: not found on PATH/],
    ['the same version twice', () => `${process.execPath},${files.same}`, new RegExp(`--node: \\S+ and \\S+same-node are both Node ${process.version.replace(/\./g, '\\.')}; give each version once`)],
  ];
  it.each(cases)('%s: exit 2, one line naming --node, no results directory', async (name, given, message) => {
    const out = outOf(name.replace(/\W+/g, '-'));
    await expectRefused(['sweep', 'quick', '--test', '--node', given(), '--out', out], message);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses a spec file that names Node executables, whatever it names: they come only from --node', async () => {
    const spec = join(tmp.dir, 'old.json');
    const out = outOf('spec');
    for (const node of [[files['old-node.sh']], 20]) {
      await writeFile(spec, JSON.stringify({ sizes: [64], runs: 1, packets: 10, node }));
      await expectRefused(['sweep', spec, '--out', out], /old\.json: "node" is not read from a spec file: Node executables come only from --node/);
    }
    expect(existsSync(out)).toBe(false);
  });

  it('refuses more than 8 executables', async () => {
    const out = outOf('many');
    await expectRefused(['sweep', 'quick', '--test', '--node', Array(9).fill('node').join(','), '--out', out], /--node must be a list of 1 to 8 Node executables/);
    expect(existsSync(out)).toBe(false);
  });
});

describe('run --node', () => {
  it('refuses what is not Node: exit 2, one line naming --node, no server started', async () => {
    await expectRefused(['run', '--node', files['not-node.sh'], '--duration', '20ms'], /--node \S+not-node\.sh: not Node/);
    await expectRefused(['run', '--node', files['old-node.sh'], '--duration', '20ms'], /is Node v18\.20\.4; udsvstcp needs Node >=20\.19/);
  });

  it('refuses a list, as sweep takes, saying run takes one (it said "node,node: not found on PATH")', async () => {
    await expectRefused(['run', '--node', 'node,node', '--duration', '20ms'], '--node takes one Node executable for run, a path or a name on PATH; got "node,node" (a list of Nodes to compare is sweep\'s: sweep --node node,node)');
  });
});
