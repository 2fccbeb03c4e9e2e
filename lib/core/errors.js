/**
 * Typed errors thrown at the boundary; the CLI maps UsageError to exit 2 (bad input, nothing started) and RunError to 1.
 * It prints a message as one line, controls escaped (a newline too: it may quote data); `hint`, lines the program
 * composed (such as how to resume), is printed under it.
 */

export class UsageError extends Error {
  /**
   * @param {string} message one line that names the flag or key and the accepted range
   * @param {string} [code] stable machine-readable code
   */
  constructor(message, code = 'ERR_USAGE') {
    super(message);
    this.name = 'UsageError';
    this.code = code;
    this.exitCode = 2;
  }
}

export class RunError extends Error {
  /**
   * @param {string} message one line saying what failed
   * @param {string} [code] stable machine-readable code
   */
  constructor(message, code = 'ERR_RUN') {
    super(message);
    this.name = 'RunError';
    this.code = code;
    this.exitCode = 1;
  }
}
