import type { PGlite } from '@electric-sql/pglite';
import { statementName } from './postgres-prepared';

/**
 * Prepared reads on the embedded database (docs/decisions.md, 723). PGlite sends every statement
 * unnamed, so each call is parsed, analysed and planned again: for a page of drawdowns about 2 ms
 * of the 2.7 ms the statement costs, on the one thread every request shares. A `select` whose text
 * is named on PostgreSQL (db/postgres-prepared.ts: parameterised, seen twice, not a search, at most
 * a few hundred texts) is here `PREPARE`d once by the database and then run as `EXECUTE name(…)`:
 * its values written as quoted literals, which the database reads exactly as it reads a parameter
 * sent as text (PGlite sends them so). PostgreSQL keeps the statement's generic plan once it costs
 * what a plan for the values does (the lists' numbers are in their text, db/paging.ts), so a list
 * is planned a handful of times per process instead of at every call.
 *
 * Each value is made text by PGlite's own serializer for that parameter's type (read once, when the
 * statement is prepared), as PGlite does for a parameter, then quoted; a value whose text holds a
 * NUL character (which PostgreSQL refuses in any text) sends the statement as before. Writes are
 * left alone: they run in transactions, and their answers' counts come from the statement itself.
 */

/** At most this many statements are prepared in one embedded database (each holds its plan). */
export const MOST_PREPARED = 100;

type Query = PGlite['query'];
type QueryArgs = Parameters<Query>;
/** PGlite's serializers: a value to its text, by the parameter's type (its oid). */
export type Serializers = PGlite['serializers'];
/** A call's own serializers, by type. */
type OwnSerializers = NonNullable<NonNullable<QueryArgs[2]>['serializers']>;

const SELECT = /^\s*select\b/i;

/** A value's text as a quoted literal (NULL for none), or undefined when it holds a NUL character. */
export function literalOf(text: string | null): string | undefined {
  if (text === null) return 'NULL';
  return text.includes('\u0000') ? undefined : `'${text.replaceAll("'", "''")}'`;
}

/** A value as text, as PGlite sends a parameter of this type (the call's own serializer first, as PGlite looks it up). */
function textOf(value: unknown, type: number | undefined, serializers: Serializers, own?: OwnSerializers): string | null {
  if (value === null || value === undefined) return null;
  const serialize = type === undefined ? undefined : (own?.[type] ?? serializers[type]);
  return serialize ? serialize(value) : String(value);
}

/**
 * `EXECUTE "name"(…)` for these values, or undefined when one of them cannot be written as a
 * literal. The name is quoted: it holds capitals, `-` and `_` (db/postgres-prepared.ts).
 */
function executeText(
  name: string,
  values: readonly unknown[],
  types: readonly number[],
  serializers: Serializers,
  own?: OwnSerializers,
) {
  const literals = values.map((value, index) => literalOf(textOf(value, types[index], serializers, own)));
  if (literals.some((literal) => literal === undefined)) return undefined;
  return `execute "${name}"(${literals.join(', ')})`;
}

/**
 * `query` sending repeated reads as prepared statements of the embedded database it queries (see
 * above), whose serializers make the values text. A statement PostgreSQL refuses to prepare (a
 * parameter whose type it cannot tell, say) is sent as it is from then on; so is one whose
 * prepared plan stops answering (its table changed shape under it), after it is deallocated.
 */
export function preparingQuery(query: Query, serializers: Serializers): Query {
  /** The prepared statements' parameter types, by name. */
  const prepared = new Map<string, number[]>();
  const refused = new Set<string>();

  const prepare = async (name: string, text: string): Promise<number[] | undefined> => {
    const known = prepared.get(name);
    if (known) return known;
    if (refused.has(name) || prepared.size >= MOST_PREPARED) return undefined;
    try {
      await query(`prepare "${name}" as ${text}`);
      const { rows } = await query<{ types: number[] }>(
        'select parameter_types::oid[] as types from pg_prepared_statements where name = $1',
        [name],
      );
      const types = rows[0]?.types ?? [];
      prepared.set(name, types);
      return types;
    } catch {
      refused.add(name);
      return undefined;
    }
  };

  return async function (...args: QueryArgs) {
    const [text, values = [], options] = args;
    const name = SELECT.test(text) && values.length > 0 ? statementName(text) : undefined;
    const types = name ? await prepare(name, text) : undefined;
    const execute = name && types ? executeText(name, values, types, serializers, options?.serializers) : undefined;
    if (!name || !execute) return query(...args);
    try {
      return await query(execute, [], options);
    } catch (error) {
      if ((error as { code?: string }).code !== '0A000') throw error;
      // "cached plan must not change result type": the table changed under it.
      prepared.delete(name);
      refused.add(name);
      await query(`deallocate "${name}"`).catch(() => undefined);
      return query(...args);
    }
  } as Query;
}
