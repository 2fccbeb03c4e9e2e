/**
 * Commands printed for people to paste into a POSIX shell.
 */

/**
 * One argument, quoted for a POSIX shell where it needs it.
 * @param {string} arg
 */
export function shellQuote(arg) {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command that continues a sweep in `dir`.
 * @param {string} dir
 */
export function resumeCommand(dir) {
  return `npx udsvstcp sweep --resume ${shellQuote(dir)}`;
}
