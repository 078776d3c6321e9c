import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from './connection';
import { recordTotals } from './schema';

export type TotalsKind = 'application' | 'loan' | 'drawdown';

export interface Totals {
  count: number;
  amountPence: number;
  /** The newest `created_at` of the kind, exact when read over every status (null when none). */
  latestAt: Date | null;
}

/** The kept totals of some kinds, summed over every status or only over the statuses given. */
export interface TotalsTable {
  of(kind: TotalsKind, statuses?: readonly string[]): Totals;
}

/**
 * The maintained totals of applications, loans or drawdowns (docs/decisions.md, 373): how many
 * there are in each status and their amounts. One statement reading at most a few dozen rows,
 * whatever the number of records (the kinds an overview needs come together); exact, as the
 * triggers of migration 0010 keep them in the same transaction as each change. For callers who
 * see every record and filter by nothing but the status (staff's unfiltered lists and overviews);
 * every other caller counts its own rows.
 */
export async function readTotals(db: Database, kinds: readonly TotalsKind[]): Promise<TotalsTable> {
  const rows = await db
    .select({
      kind: recordTotals.kind,
      status: recordTotals.status,
      count: recordTotals.count,
      amountPence: recordTotals.amountPence,
      latestAt: recordTotals.latestAt,
    })
    .from(recordTotals)
    .where(inArray(recordTotals.kind, [...kinds]));
  return {
    of(kind, statuses) {
      const totals: Totals = { count: 0, amountPence: 0, latestAt: null };
      for (const row of rows) {
        if (row.kind !== kind || (statuses && !statuses.includes(row.status))) continue;
        totals.count += Number(row.count);
        totals.amountPence += Number(row.amountPence);
        if (row.latestAt && (!totals.latestAt || row.latestAt > totals.latestAt)) totals.latestAt = row.latestAt;
      }
      return totals;
    },
  };
}

/**
 * The kept count of a kind (over every status, or only those given) as a statement answering one
 * row with the column `total`: a list's total for staff filtering by nothing but the status, read
 * within the page's own statement (db/paging.ts).
 */
export function keptTotal(db: Database, kind: TotalsKind, statuses?: readonly string[]) {
  return db
    .select({ total: sql<number>`coalesce(sum(${recordTotals.count}), 0)`.as('total') })
    .from(recordTotals)
    .where(and(eq(recordTotals.kind, kind), statuses ? inArray(recordTotals.status, [...statuses]) : undefined));
}
