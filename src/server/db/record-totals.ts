import { and, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, type Database } from './connection';
import { recordTotals } from './schema';

export type TotalsKind = 'application' | 'loan' | 'drawdown';

export interface Totals {
  count: number;
  amountPence: number;
  /** The newest `created_at` of the kind, exact when read over every status (null when none). */
  latestAt: Date | null;
}

/**
 * The maintained totals of applications, loans or drawdowns (docs/decisions.md, 373): how many
 * there are and their amounts, in every status or only in the statuses given. A read of at most a
 * dozen rows, whatever the number of records; exact, as the triggers of migration 0010 keep them
 * in the same transaction as each change. For callers who see every record and filter by nothing
 * but the status (staff's unfiltered lists and overviews); every other caller counts its own rows.
 */
export async function readTotals(db: Database, kind: TotalsKind, statuses?: readonly string[]): Promise<Totals> {
  if (statuses && statuses.length === 0) return { count: 0, amountPence: 0, latestAt: null };
  const where = and(eq(recordTotals.kind, kind), statuses ? inArray(recordTotals.status, [...statuses]) : undefined);
  const [row] = await queryRows<{ count: string | number; amount: string | number; latest: Date | string | null }>(
    db,
    sql`select coalesce(sum(${recordTotals.count}), 0) as "count", coalesce(sum(${recordTotals.amountPence}), 0) as "amount",
          max(${recordTotals.latestAt}) as "latest"
        from ${recordTotals} where ${where}`,
  );
  return {
    count: Number(row?.count ?? 0),
    amountPence: Number(row?.amount ?? 0),
    latestAt: row?.latest ? new Date(row.latest) : null,
  };
}
