/**
 * What is running: processes found through /proc (Linux).
 */
import fs from 'node:fs';

/**
 * The processes whose command line mentions `text`.
 * @param {string} text
 */
export function processesMentioning(text) {
  return fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
    } catch {
      return false;
    }
  });
}
