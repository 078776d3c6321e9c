import { asc, getTableName, sql } from 'drizzle-orm';
import type { Database } from '../../db/connection';
import type { ExtractTable } from './extract-tables';

export type ExtractRow = Record<string, unknown>;

/**
 * The rows of one table in key order, `batchSize` at a time: each batch is one query that starts
 * after the last key read (keyset paging, so a page costs the same anywhere in the table and no
 * table is ever held whole). Each batch is its own statement, not one long transaction: an
 * extract must not hold the embedded database (one connection) or a PostgreSQL snapshot for as
 * long as the download takes (docs/decisions.md 253).
 */
export async function* readInBatches(db: Database, spec: ExtractTable, batchSize: number): AsyncGenerator<ExtractRow[]> {
  const selection = Object.fromEntries(spec.columns.map((column) => [column.name, column]));
  for (const column of spec.key) {
    if (!spec.columns.includes(column)) throw new Error(`${getTableName(spec.table)}: key ${column.name} is not extracted`);
  }
  const keyList = sql.join(
    spec.key.map((column) => sql`${column}`),
    sql`, `,
  );
  let after: unknown[] | undefined;
  for (;;) {
    const rows: ExtractRow[] = await db
      .select(selection)
      .from(spec.table)
      .where(
        after
          ? sql`(${keyList}) > (${sql.join(
              after.map((value) => sql`${value}`),
              sql`, `,
            )})`
          : undefined,
      )
      .orderBy(...spec.key.map((column) => asc(column)))
      .limit(batchSize);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    after = spec.key.map((column) => last[column.name]);
  }
}
