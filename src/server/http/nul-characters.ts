/**
 * No request of the contract nests deeper than a handful of levels; a body nested beyond this is
 * refused before anything walks it (a deep enough one would overflow the stack: a 500).
 */
const MAX_REQUEST_DEPTH = 32;

/**
 * PostgreSQL cannot store U+0000 in text; a request carrying one is refused as invalid input
 * before it reaches a query (with the path of the first field that holds it). A value nested
 * deeper than MAX_REQUEST_DEPTH is refused the same way, at the path where it goes too deep.
 */
export function findNulCharacter(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') || '_' : undefined;
  if (!value || typeof value !== 'object') return undefined;
  if (path.length >= MAX_REQUEST_DEPTH) return path.join('.');
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findNulCharacter(item, [...path, String(i)]);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, key].join('.');
    const found = findNulCharacter(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}
