/**
 * meta.json's `machine` for one session: the machine facts
 * (lib/core/machine.js), then, unless turned off, the wake-up probe
 * (./wakeup-probe.js), one after the other so that the probe's round
 * trips share the machine with nothing this tool started.
 */
import { collectMachine } from '../core/machine.js';
import { probeWakeup } from './wakeup-probe.js';

/**
 * The probe of a sweep: 6 blocks of 50 ms (same, cross, cross, same, and two
 * cross-CPU with both CPUs busy), about 0.3 s of round trips and 0.5 s in all
 * on a quiet machine; with --test, blocks of 10 ms.
 */
export const PROBE = { blockMs: 50, blocks: 2 };
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
