import { is, Placeholder, sql } from 'drizzle-orm';
import type { Database } from './connection';

/**
 * A statement's values by name: what a caller's call puts in it (ids, a status). An absent value
 * (undefined) is part of the statement's shape: its condition is left out.
 */
export type StatementValues = Record<string, number | string | undefined>;

/** What drizzle's select builder offers: its statement prepared once, and its text and parameters. */
export interface Writable<R> {
  prepare(name: string): Written<R>;
  toSQL(): { sql: string; params: unknown[] };
}

interface Written<R> {
  execute(values: Record<string, unknown>): Promise<R>;
  getQuery(): { sql: string; params: unknown[] };
}

/** At most this many shapes are kept per database; a new one past it takes the least recently used one's place. */
export const MOST_SHAPES = 300;

const writtenByDatabase = new WeakMap<Database, Map<string, Written<unknown>>>();

/**
 * The tests (NODE_ENV=test: vitest, and the server the end-to-end tests start) check every kept
 * statement against the one written afresh for the call's values: a value read as anything but its
 * placeholder would show there. Elsewhere, the demo portal included, the check would cost what
 * keeping the statement saves.
 */
const checksEachCall = process.env.NODE_ENV === 'test';

/**
 * Runs the statement `write` makes for `values`, written once per database and shape and kept
 * (docs/decisions.md 748). Turning drizzle's builders into text and parameters cost more of a
 * list's time on the server's thread than anything else of ours: about a sixth of it on
 * PostgreSQL, an eighth on the embedded database.
 *
 * `write` is given each present value as a placeholder of its name, never the value itself, so a
 * kept statement holds no caller's values: they are bound at each call. The statement is named by
 * `shape` (everything else its text depends on: the role, the page's numbers) and by which values
 * are present. `write` may test whether a value is present, never what it is.
 *
 * The statement is prepared unnamed: db/postgres-prepared.ts and db/pglite-prepared.ts name it by
 * its text, as they do every other.
 */
export async function runShaped<V extends StatementValues, R>(
  db: Database,
  shape: string,
  values: V,
  write: (values: V) => Writable<R>,
): Promise<R> {
  const present = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
  const key = `${shape}|${Object.keys(present).sort().join(',')}`;
  let written = writtenByDatabase.get(db);
  if (!written) writtenByDatabase.set(db, (written = new Map()));
  let statement = written.get(key) as Written<R> | undefined;
  // A Map keeps its keys in the order they were set: each use sets its shape again, so the first
  // key is the one least recently used, and a new shape past the limit takes its place. Paging far,
  // once, cannot then hold the place of the shapes asked for every day.
  if (statement) written.delete(key);
  else {
    const placeholders = Object.fromEntries(Object.keys(present).map((name) => [name, sql.placeholder(name)]));
    statement = write(placeholders as unknown as V).prepare('');
    if (written.size >= MOST_SHAPES) written.delete(written.keys().next().value as string);
  }
  written.set(key, statement as Written<unknown>);
  if (checksEachCall) checkAgainstFresh(statement, write(values), present);
  return statement.execute(present);
}

/** Throws when the kept statement is not the one written for these values: a defect of `write`. */
function checkAgainstFresh(kept: Written<unknown>, fresh: Writable<unknown>, values: Record<string, unknown>): void {
  const { sql: keptText, params } = kept.getQuery();
  const expected = fresh.toSQL();
  const bound = params.map((param) => (is(param, Placeholder) ? values[param.name] : param));
  if (keptText !== expected.sql || JSON.stringify(bound) !== JSON.stringify(expected.params))
    throw new Error(`a kept statement differs from the one written for its values:\n${keptText}\n${expected.sql}`);
}
