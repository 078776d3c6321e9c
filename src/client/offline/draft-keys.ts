/**
 * The one grammar of draft keys: `<kind>:<part>:<part>…`. A feature names its own kinds (and so
 * its drafts) through draftKey; nothing else builds or parses a key. Parts hold no ':' (ids,
 * local ids and names do not), so the grammar reads back exactly what was written.
 */

export interface DraftKeyParts {
  kind: string;
  parts: string[];
}

const SEPARATOR = ':';

export function draftKey(kind: string, ...parts: (string | number)[]): string {
  return [kind, ...parts.map(String)].join(SEPARATOR);
}

export function parseDraftKey(key: string): DraftKeyParts {
  const [kind = '', ...parts] = key.split(SEPARATOR);
  return { kind, parts };
}

/** The key with every part equal to `from` replaced by `to` (a local id that the server has named). */
export function renameDraftKeyPart(key: string, from: string, to: string | number): string {
  const { kind, parts } = parseDraftKey(key);
  if (!parts.includes(from)) return key;
  return draftKey(kind, ...parts.map((part) => (part === from ? String(to) : part)));
}
