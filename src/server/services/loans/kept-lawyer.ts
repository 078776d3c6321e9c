import { eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { ScopeActor } from '../../policies/scope-values';
import { scope as applicationScope } from '../../policies/applications';
import { ofFirmLawyers } from '../../policies/firm-lawyers';

/**
 * Who sees which loans or drawdowns, and the lawyer and firm filters, read from the lawyer the
 * database keeps on their rows (`loans.lawyer_id`, `drawdowns.lawyer_id`: in every committed state
 * the application's lawyer, migration 0015, docs/decisions.md, 621). The same rows as the
 * applications' scope over the loan's application (a lawyer's own; a firm's lawyers'; a client's
 * own and staff's all are that scope itself), but read by the column's index: a lawyer's list and
 * total read only their rows, and the planner is not misled by the same lawyer tested twice.
 */
export function keptLawyerScope(column: PgColumn, actor: ScopeActor, filter: { lawyerId?: number; firmId?: number }): SQL[] {
  const byLawyer = (lawyerId: number) => eq(column, lawyerId);
  const byFirm = (firmId: number) => ofFirmLawyers(column, firmId);
  const scope =
    actor.role === 'lawyer'
      ? actor.lawyerId
        ? byLawyer(actor.lawyerId)
        : sql`false`
      : actor.role === 'firm'
        ? actor.firmId
          ? byFirm(actor.firmId)
          : sql`false`
        : applicationScope(actor);
  return [
    scope,
    filter.lawyerId ? byLawyer(filter.lawyerId) : undefined,
    filter.firmId ? byFirm(filter.firmId) : undefined,
  ].filter((condition): condition is SQL => condition !== undefined);
}
