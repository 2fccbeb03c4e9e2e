/**
 * The presets in sweeps/, by name: apart from ./spec.js, which reads and validates them, so that the command line's
 * help can list them without loading what a sweep needs.
 */
import { readdirSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PRESET_DIR = fileURLToPath(new URL('../../sweeps/', import.meta.url));

export function listPresets() {
  return readdirSync(PRESET_DIR).filter((f) => f.endsWith('.json')).map((f) => basename(f, '.json')).sort();
}
