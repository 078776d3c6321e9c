import { count, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import { queryRows, type Database } from './connection';
import { runShaped, type StatementValues, type Writable } from './shaped-statements';

/** A page of a list: 1-based page number and its size (the contract gives both defaults). */
export interface Paging {
  page: number;
  pageSize: number;
}

/** How many rows to skip for this page. */
export const pageOffset = ({ page, pageSize }: Paging): number => (page - 1) * pageSize;

/**
 * A count written into the statement's text, not sent as a parameter (docs/decisions.md, 720).
 * PostgreSQL keeps a prepared statement's generic plan only when it costs about what a plan made
 * for the values does; a `limit $n` it cannot see is planned as a tenth of the table, so every
 * list was planned again at each call (about 1 ms for a drawdowns page, more than running it).
 * With the numbers in the text the generic plan is the page's own, and PostgreSQL keeps it. Each
 * page size and offset is a text of its own; a text is named only once seen twice
 * (db/postgres-prepared.ts), so paging far once names nothing. Only a whole number is written.
 */
function countInText(value: number): SQL {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not a row count: ${value}`);
  return sql.raw(String(value));
}

/**
 * The page's `limit` for drizzle's `.limit()`, as a number in the statement's text (see
 * countInText). Drizzle writes an object given to `.limit()`/`.offset()` as SQL; its types name
 * only numbers and placeholders, hence the cast.
 */
export const pageLimit = (paging: Paging): number => countInText(paging.pageSize) as unknown as number;

/** The page's `offset` for drizzle's `.offset()`, as a number in the statement's text (see pageLimit). */
export const pageSkip = (paging: Paging): number => countInText(pageOffset(paging)) as unknown as number;

/**
 * How far past a page's start a search's total is counted (docs/decisions.md, 722): a word of one
 * letter matches a tenth of all cases, and counting every match cost more than the page itself.
 * The pager needs to know only that pages go on; a thousand rows is a hundred pages ahead.
 */
export const SEARCH_COUNT_AHEAD = 1_000;

/** The most rows a search's total counts for this page: everything before it and SEARCH_COUNT_AHEAD more. */
export const searchCountLimit = (paging: Paging): number => pageOffset(paging) + SEARCH_COUNT_AHEAD;

/**
 * The statement of a total counted no further than `limit` rows, and one row more to tell that
 * more are there (see pageOfCounted): `matching` selects the rows the list's condition selects.
 */
export function totalUpTo(db: Database, matching: PgSelect, limit: number) {
  const counted = matching.limit(countInText(limit + 1) as unknown as number).as('counted');
  return db.select({ total: countAsTotal() }).from(counted);
}

/**
 * The wire form of a page whose total may have been counted only up to `countLimit` rows
 * (totalUpTo): then `totalIsAtLeast` says there are at least `total` records, and more.
 */
export function pageOfCounted<T>(items: T[], total: number, paging: Paging, countLimit: number | undefined) {
  const page = pageOf(items, total, paging);
  return countLimit !== undefined && total > countLimit ? { ...page, totalIsAtLeast: true } : page;
}

/** `limit … offset …` of a raw query, its numbers in the text (see countInText). */
export const pageClause = (paging: Paging): SQL =>
  sql`limit ${countInText(paging.pageSize)} offset ${countInText(pageOffset(paging))}`;

/** The wire form of a page: the items, the total and the paging asked for. */
export function pageOf<T>(items: T[], total: number | undefined, paging: Paging) {
  return { items, total: total ?? 0, page: paging.page, pageSize: paging.pageSize };
}

/** The field of a total statement: `db.select({ total: countAsTotal() }).from(…).where(…)`. */
export const countAsTotal = () => count().as('total');

/** A list's figures besides its rows: the total, and any other count the list shows. */
export type Figures = Record<string, number>;

/**
 * A page and its figures in one statement (docs/decisions.md, 620). The figures are one statement
 * answering one row; the page's statement carries that row as one column (`figuresColumn`), an
 * uncorrelated subquery PostgreSQL evaluates once (an InitPlan) beside whatever plan the page
 * gets, so each part keeps its own best plan (the kept totals, or a count over the caller's rows)
 * and the caller pays one round trip, and on the embedded database one turn. A page with no rows
 * has nothing to carry them: then they are `whenEmpty` when known without reading (the first page
 * empty: nothing matches), else read alone, a second statement only for an empty list or a page
 * past the end.
 */
export async function pageWithFigures<Row, F extends Figures>(
  db: Database,
  paging: Paging,
  figures: { statement: SQLWrapper; whenEmpty?: F },
  readPage: (figuresColumn: SQL<F>) => Promise<(Row & { figures: F })[]>,
): Promise<{ rows: Row[]; figures: F }> {
  const rows = await readPage(figuresColumn<F>(figures.statement));
  return figuresOfPage(db, paging, rows, { ...figures, statement: () => figures.statement });
}

/** The column of a page's statement that carries its figures' statement's one row (see pageWithFigures). */
export const figuresColumn = <F extends Figures>(statement: SQLWrapper): SQL<F> =>
  sql<F>`(select row_to_json(figures) from (${statement}) as figures)`.mapWith(parseFigures<F>);

/**
 * The rows of a page read with `figuresColumn`, and its figures: from its first row, else as
 * pageWithFigures says (`statement` is written only when the figures must be read alone).
 */
export async function figuresOfPage<Row, F extends Figures>(
  db: Database,
  paging: Paging,
  rows: (Row & { figures: F })[],
  figures: { statement: () => SQLWrapper; whenEmpty?: F },
): Promise<{ rows: Row[]; figures: F }> {
  const first = rows[0];
  if (!first) {
    if (paging.page === 1 && figures.whenEmpty) return { rows: [], figures: figures.whenEmpty };
    const [alone] = await queryRows<Record<string, unknown>>(
      db,
      sql`select row_to_json(figures) as figures from (${figures.statement()}) as figures`,
    );
    return { rows: [], figures: parseFigures<F>(alone?.figures ?? {}) };
  }
  return { rows: rows.map(({ figures: _, ...row }) => row as Row), figures: first.figures };
}

/** The figures' row as JSON (a driver may hand it over parsed or as text), every value a number. */
function parseFigures<F extends Figures>(value: unknown): F {
  const row = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(row).map(([name, n]) => [name, Number(n ?? 0)])) as F;
}

/**
 * A page and its total in one statement (see `pageWithFigures`): `total` is a statement answering
 * one row with the column `total` (a count over the caller's rows, or the kept totals).
 */
export async function pageWithTotal<Row>(
  db: Database,
  paging: Paging,
  total: SQLWrapper,
  readPage: (figuresColumn: SQL<{ total: number }>) => Promise<(Row & { figures: { total: number } })[]>,
): Promise<{ rows: Row[]; total: number }> {
  const { rows, figures } = await pageWithFigures(db, paging, { statement: total, whenEmpty: { total: 0 } }, readPage);
  return { rows, total: figures.total };
}

/** A list's page statement as drizzle builds it: awaited, it runs (a search's), or is kept (db/shaped-statements.ts). */
type PageStatement<Row> = Writable<(Row & { figures: { total: number } })[]> &
  PromiseLike<(Row & { figures: { total: number } })[]>;

/**
 * A page of a list and its total, in one statement carrying the total's (`figuresColumn`), written
 * once per shape and page (db/shaped-statements.ts) unless the call searches: a search's words
 * make a text of their own. `write` writes the page's statement from `values` alone; `totalAlone`
 * is the total's statement, read alone only for an empty page (see pageWithFigures).
 */
export async function shapedPage<V extends StatementValues, Row>(
  db: Database,
  paging: Paging,
  list: { shape: string; values: V; searches: boolean; write: (values: V) => PageStatement<Row>; totalAlone: () => SQLWrapper },
): Promise<{ rows: Row[]; total: number }> {
  const page = list.searches
    ? await list.write(list.values)
    : await runShaped(db, `${list.shape} ${paging.pageSize} ${paging.page}`, list.values, list.write);
  const { rows, figures } = await figuresOfPage(db, paging, page, { whenEmpty: { total: 0 }, statement: list.totalAlone });
  return { rows, total: figures.total };
}
