/**
 * JSON Lines: one record per line, keys in RECORD_FIELDS order.
 */
import { RECORD_FIELDS } from '../record.js';

/**
 * @param {import('../record.js').TrialRecord} record
 */
export function toJsonLine(record) {
  return `${JSON.stringify(record, /** @type {string[]} */ ([...RECORD_FIELDS]))}\n`;
}
