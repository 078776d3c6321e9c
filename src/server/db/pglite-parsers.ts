import { types, type PGlite } from '@electric-sql/pglite';

type QueryOptions = NonNullable<Parameters<PGlite['query']>[2]>;
type Parser = (value: string, typeId?: number) => unknown;

/**
 * The types drizzle reads from the embedded database as PostgreSQL's own text, and converts
 * itself: timestamps, dates, intervals, numeric arrays and their arrays. Drizzle gives PGlite a
 * parser for each on every call (drizzle-orm/pglite/session.js), each returning the text it is
 * given. PGlite merges a call's parsers into a copy of its whole table (318 types) on every call,
 * and that copy cost about 90 µs a statement, a tenth of a staff list's time on the database's
 * thread, and its garbage (docs/decisions.md 747).
 */
export const TYPES_KEPT_AS_TEXT: readonly number[] = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
];

const keptAsText = new Set(TYPES_KEPT_AS_TEXT);
const asText: Parser = (value) => value;
/** A string no parser but one that returns its input answers with itself. */
const PROBE = '\u0000parser probe';

/**
 * Makes the client read those types as text itself, as every drizzle call asks. Called once the
 * client is ready: PGlite sets its array types' parsers while it starts, and would otherwise parse
 * a timestamp[] into an array where drizzle expects the text.
 */
export function keepTypesAsText(client: PGlite): void {
  for (const type of TYPES_KEPT_AS_TEXT) client.parsers[type] = asText;
}

/**
 * A call's options without parsers that only say what the client already does (see above): each
 * one for a type kept as text, and answering its text unchanged. Any other parser keeps them all.
 */
export function withoutRepeatedParsers<O extends QueryOptions | undefined>(options: O): O {
  const parsers = options?.parsers as Record<string, Parser> | undefined;
  if (!parsers) return options;
  for (const type in parsers) {
    if (!keptAsText.has(Number(type)) || parsers[type]?.(PROBE, Number(type)) !== PROBE) return options;
  }
  return { ...options, parsers: undefined };
}
