/** LIKE's wildcards (and its escape) escaped, so a search for "50%" means the text, not a pattern. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** An ILIKE pattern matching text that contains `text` anywhere. */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

/** A LIKE pattern matching text that starts with `text`. */
export function startsWithPattern(text: string): string {
  return `${escapeLike(text)}%`;
}

/** The pattern of a free-text search box: undefined when blank (no condition). */
export function searchPattern(search: string | undefined): string | undefined {
  const text = search?.trim();
  return text ? containsPattern(text) : undefined;
}
