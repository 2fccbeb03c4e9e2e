/**
 * meta.json's `machine` for one session: the machine facts
 * (lib/core/machine.js), then, unless turned off, the wake-up probe
 * (./wakeup-probe.js), one after the other so that the probe's round
 * trips share the machine with nothing this tool started.
 */
import { collectMachine } from '../core/machine.js';
import { probeWakeup } from './wakeup-probe.js';

/** The probe of a sweep: about 0.6 s of round trips; with --test about 0.06 s. */
export const PROBE = { blockMs: 100, blocks: 2 };
export const TEST_PROBE = { blockMs: 10, blocks: 2 };

/**
 * @param {{ probe: boolean, test?: boolean, signal?: AbortSignal }} options
 *   probe: run the wake-up probe (false: `wakeup` is null and `wakeup_note` says it was turned off)
 */
export async function collectMachineFacts({ probe, test = false, signal }) {
  const facts = await collectMachine();
  const result = probe ? await probeWakeup({ ...(test ? TEST_PROBE : PROBE), signal }) : { wakeup: null, note: 'not run (--no-probe)' };
  return { ...facts, wakeup: result.wakeup, wakeup_note: result.note };
}
