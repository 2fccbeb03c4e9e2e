/**
 * JSON from files udsvstcp did not necessarily write (spec files, meta.json): its nesting is measured on the text
 * first, so a document nested thousands deep is refused in one line instead of overflowing whatever walks it later.
 */

/**
 * How deeply the text's objects and lists nest, counting no further than `limit` + 1.
 * @param {string} text
 * @param {number} limit
 */
function nesting(text, limit) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) { // bounded by the text's length
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) { // { [
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) break;
    } else if (c === 0x7d || c === 0x5d) { // } ]
      depth--;
    }
  }
  return deepest;
}

/**
 * JSON.parse, refusing text nested over `maxDepth` deep (a RangeError); its message, or a SyntaxError's, goes after the file's name.
 * @param {string} text
 * @param {number} maxDepth
 * @returns {unknown}
 */
export function parseJson(text, maxDepth) {
  if (nesting(text, maxDepth) > maxDepth) throw new RangeError(`nested more than ${maxDepth} objects or lists deep`);
  return JSON.parse(text);
}
