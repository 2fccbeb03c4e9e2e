/**
 * Typed errors thrown at the boundary. The CLI maps them to exit codes:
 * UsageError → 2 (bad input, nothing started), RunError → 1 (a run failed).
 * The CLI prints an error's message as one line, its controls escaped (a
 * newline in it too: it may quote data); an error may carry `hint`, lines
 * the program composed (such as how to resume), printed under it.
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
