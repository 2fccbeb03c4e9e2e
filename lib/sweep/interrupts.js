/**
 * Signals during a sweep. The first SIGINT, SIGTERM or SIGHUP aborts: the
 * trial in progress is stopped, the server is stopped and what was measured
 * is written. A second one hurries: the server is killed at once. No signal
 * kills the process outright while the handlers are installed, so the
 * results directory is always left complete and resumable.
 */

const NUMBERS = /** @type {const} */ ({ SIGHUP: 1, SIGINT: 2, SIGTERM: 15 });

/**
 * @param {{ onFirst?: (signal: string) => void, onHurry?: (signal: string) => void }} [hooks]
 */
export function watchSignals({ onFirst, onHurry } = {}) {
  const controller = new AbortController();
  /** @type {keyof typeof NUMBERS | null} */
  let first = null;
  const handler = (/** @type {keyof typeof NUMBERS} */ signal) => {
    // the terminal may be gone (SIGHUP): never let a write to it take the process down
    if (signal === 'SIGHUP') process.stderr.on('error', () => {});
    if (first === null) {
      first = signal;
      controller.abort();
      onFirst?.(signal);
    } else {
      onHurry?.(signal);
    }
  };
  const signals = /** @type {(keyof typeof NUMBERS)[]} */ (Object.keys(NUMBERS));
  for (const signal of signals) process.on(signal, handler);
  return {
    signal: controller.signal,
    /** the first signal received, or null */
    received: () => first,
    /** 128 + the first signal's number (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP), or null */
    exitCode: () => (first === null ? null : 128 + NUMBERS[first]),
    dispose() {
      for (const signal of signals) process.off(signal, handler);
    },
  };
}
