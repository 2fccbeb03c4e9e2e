/**
 * Who may change a results directory or a file in it, judged as ssh's StrictModes judges ~/.ssh: it must belong to
 * this user or root, and neither its group nor others may write it; a sticky world-writable directory (/tmp itself) is
 * refused too, as anyone may have created what is in it. Refused in one line naming path and reason, unless the user
 * vouches for it with --allow-shared-dir.
 */
import fs from 'node:fs';
import { UsageError } from './errors.js';

/**
 * Why another user could change what is at this stat, or null when no one but this user (or root) can.
 * @param {{ uid: number, mode: number }} stat
 * @param {number | null} [uid] the effective uid to judge for (default: this process's; null where there are none, as on Windows)
 */
export function sharedReason(stat, uid = process.geteuid ? process.geteuid() : null) {
  if (uid === null) return null;
  const mode = `mode ${(stat.mode & 0o7777).toString(8).padStart(4, '0')}`;
  if (stat.uid !== uid && stat.uid !== 0) return `owned by uid ${stat.uid}, not by you (uid ${uid}) or root`;
  if (stat.mode & 0o002) return `others may write it (${mode}${stat.mode & 0o1000 ? ', sticky: anyone may have created what is in it' : ''})`;
  if (stat.mode & 0o020) return `its group may write it (${mode})`;
  return null;
}

/**
 * Refuse a path that another user could change.
 * @param {string} what how to name it, e.g. `--resume results/x` or a file's path
 * @param {{ uid: number, mode: number }} stat
 */
export function checkPrivate(what, stat) {
  const reason = sharedReason(stat);
  if (reason) throw new UsageError(`${what}: ${reason}; another user could change what udsvstcp reads or writes there (give --allow-shared-dir if you trust them)`, 'ERR_SHARED');
}

/**
 * Refuse an existing results directory that another user could change; a missing one passes (we create it).
 * @param {string} dir
 * @param {string} flag the flag that named it, e.g. --out
 */
export function checkPrivateDir(dir, flag) {
  const stat = fs.statSync(dir, { throwIfNoEntry: false });
  if (stat) checkPrivate(`${flag} ${dir}`, stat);
}
