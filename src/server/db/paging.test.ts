import { describe, expect, it } from 'vitest';
import { desc } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/node-postgres';
import { drawdowns } from './schema';
import { pageClause, pageLimit, pageSkip } from './paging';

/** The statement drizzle would send, without a database. */
const db = drizzle.mock();
const dialect = new PgDialect();

describe("a page's numbers are in the statement's text (docs/decisions.md, 720)", () => {
  it('writes limit and offset as numbers, not parameters, so a generic plan sees them', () => {
    const query = db
      .select({ id: drawdowns.id })
      .from(drawdowns)
      .orderBy(desc(drawdowns.id))
      .limit(pageLimit({ page: 3, pageSize: 10 }))
      .offset(pageSkip({ page: 3, pageSize: 10 }))
      .toSQL();
    expect(query.sql).toMatch(/ limit 10 offset 20$/);
    expect(query.params).toEqual([]);
  });

  it('writes the raw clause the same way', () => {
    expect(dialect.sqlToQuery(pageClause({ page: 1, pageSize: 25 }))).toEqual({ sql: 'limit 25 offset 0', params: [] });
  });

  it('refuses anything but a whole, non-negative count', () => {
    expect(() => pageLimit({ page: 1, pageSize: 2.5 })).toThrow(RangeError);
    expect(() => pageSkip({ page: 0, pageSize: 10 })).toThrow(RangeError);
    expect(() => pageLimit({ page: 1, pageSize: Number.NaN })).toThrow(RangeError);
  });
});
