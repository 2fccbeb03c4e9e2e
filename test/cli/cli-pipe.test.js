import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';

describe('a reader that goes away', () => {
  it('ends the output quietly: no EPIPE stack trace, the exit code of the command', async () => {
    const child = spawn(process.execPath, [BIN, 'run', '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // closed before the CLI has written anything (it is still loading)
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (t) => { stderr += t; });
    const code = await new Promise((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(code).toBe(0);
  });
});
