import { and, desc, eq, inArray } from 'drizzle-orm';
import { auditEvents, users } from '../../db/schema';
import type { ServiceContext } from '../context';
import type { components } from '../../../shared/api/schema';
import { toPounds } from '../../../shared/rules/money';
import { isStaff, type Role } from '../../../shared/rules/permissions';
import { findLoan } from './find-loan';

type FacilityChange = components['schemas']['FacilityChange'];

/**
 * The loan's audit entries that changed its facility, and what each is on the history (docs/decisions.md,
 * 514): the audit is the one record of every change, so the history is read from it, never kept twice.
 */
const eventOfAction = {
  created: 'signed',
  variationRequested: 'variationRequested',
  variationSigned: 'variationSigned',
  amountLowered: 'lowered',
  variationWithdrawn: 'variationWithdrawn',
  amountChanged: 'changed',
  facilityRestated: 'restated',
} as const satisfies Record<string, FacilityChange['event']>;

/** Enough for any loan's life; a history longer than this shows its newest changes. */
const HISTORY_LIMIT = 200;

/** An amount in pence an audit state holds, in pounds; null when absent (an entry written before variations had no pending figure). */
function poundsIn(state: unknown, key: 'amountPence' | 'pendingAmountPence'): number | null {
  const value = state && typeof state === 'object' ? (state as Record<string, unknown>)[key] : undefined;
  return typeof value === 'number' && Number.isSafeInteger(value) ? toPounds(value) : null;
}

function partyOf(role: string | null): FacilityChange['by'] {
  if (role === null) return null;
  if (role === 'customer') return 'client';
  if (role === 'lawyer') return 'lawyer';
  return 'provider';
}

/**
 * GET /loans/{id}/facility-history: every change of the loan's facility, newest first, for whoever
 * sees the loan (404 otherwise). Who made each change is given as a party; their name to staff only
 * (a client or lawyer deals with the provider, not with its employees by name).
 */
export async function getLoanFacilityHistory({ db, actor }: ServiceContext, input: { id: number }) {
  const loan = await findLoan(db, actor, input.id);
  const rows = await db
    .select({
      id: auditEvents.id,
      at: auditEvents.at,
      action: auditEvents.action,
      from: auditEvents.fromState,
      to: auditEvents.toState,
      role: users.role,
      firstName: users.firstName,
      surname: users.surname,
    })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorUserId))
    .where(
      and(
        eq(auditEvents.entityType, 'loan'),
        eq(auditEvents.entityId, String(loan.id)),
        inArray(auditEvents.action, Object.keys(eventOfAction)),
      ),
    )
    .orderBy(desc(auditEvents.id))
    .limit(HISTORY_LIMIT);
  const staff = isStaff(actor.role);
  const items: FacilityChange[] = rows.map((row) => ({
    id: row.id,
    at: row.at.toISOString(),
    event: eventOfAction[row.action as keyof typeof eventOfAction],
    amount: poundsIn(row.to, 'amountPence'),
    pendingAmount: poundsIn(row.to, 'pendingAmountPence'),
    previousAmount: poundsIn(row.from, 'amountPence'),
    previousPendingAmount: poundsIn(row.from, 'pendingAmountPence'),
    by: partyOf((row.role as Role | null) ?? null),
    byName: staff && row.firstName !== null ? `${row.firstName} ${row.surname ?? ''}`.trim() : null,
  }));
  return { items };
}
