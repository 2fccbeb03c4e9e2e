/**
 * The StrictModes rule, for any user: a path of this user or root, writable
 * by neither group nor others, passes; anything else gets its reason. The
 * owner is judged against a given uid, so another owner is checked here
 * without root (test/cli/results-ownership.test.js does it with chown).
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPrivate, sharedReason } from '../../lib/core/ownership.js';

const DIR = 0o040000;

describe('sharedReason', () => {
  it('passes a private directory of the user judged for, and one of root', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'udsvstcp-test-'));
    try {
      const own = await stat(dir);
      expect(sharedReason(own, own.uid)).toBeNull();
      expect(sharedReason({ uid: 0, mode: DIR | 0o755 }, 1000)).toBeNull();
      // the same real directory, judged for another user: not theirs (root excepted)
      if (own.uid !== 0) expect(sharedReason(own, own.uid + 1)).toBe(`owned by uid ${own.uid}, not by you (uid ${own.uid + 1}) or root`);
      expect(sharedReason({ uid: 1000, mode: own.mode }, 1001)).toBe('owned by uid 1000, not by you (uid 1001) or root');
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it.each([
    ['0777', 'others may write it (mode 0777)'],
    ['1777', 'others may write it (mode 1777, sticky: anyone may have created what is in it)'],
    ['0757', 'others may write it (mode 0757)'],
    ['0775', 'its group may write it (mode 0775)'],
    ['0664', 'its group may write it (mode 0664)'],
    ['0755', null],
    ['0700', null],
    ['0644', null],
  ])('mode %s of the user\'s own path: %s', (mode, reason) => {
    expect(sharedReason({ uid: 1000, mode: DIR | parseInt(mode, 8) }, 1000)).toBe(reason);
  });

  it('where there are no uids (Windows) nothing is refused', () => {
    expect(sharedReason({ uid: 0, mode: 0o777 }, null)).toBeNull();
  });

  it('checkPrivate throws one line naming the path, the reason and --allow-shared-dir, exit code 2', () => {
    expect(() => checkPrivate('--out /x', { uid: 4242, mode: DIR | 0o755 })).toThrow(expect.objectContaining({ exitCode: 2, code: 'ERR_SHARED' }));
    expect(() => checkPrivate('--out /x', { uid: process.getuid?.() ?? 0, mode: DIR | 0o777 })).toThrow(/^--out \/x: others may write it \(mode 0777\); .*give --allow-shared-dir if you trust them\)$/);
  });
});
