/**
 * PostgreSQL cannot store U+0000 in text; a request carrying one is refused as invalid input
 * before it reaches a query (with the path of the first field that holds it).
 */
export function findNulCharacter(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') || '_' : undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findNulCharacter(item, [...path, String(i)]);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) return [...path, key].join('.');
      const found = findNulCharacter(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}
