/**
 * A module-loading hook that lets at most a few modules load at once, so a large module graph never holds more than
 * that many files open; registered by ./charts.js (why and when: there), on Node's hooks thread.
 */

/** Modules loaded at once, at most. */
const AT_ONCE = 8;

let active = 0;
/** @type {(() => void)[]} */
const waiting = [];

/** @type {import('node:module').LoadHook} */
export async function load(url, context, nextLoad) {
  if (active < AT_ONCE) active += 1;
  else await new Promise((resolve) => waiting.push(() => resolve(undefined))); // handed a slot by the one that ends
  try {
    return await nextLoad(url, context);
  } finally {
    const next = waiting.shift();
    if (next) next();
    else active -= 1;
  }
}
