import { and, desc, eq, sql } from 'drizzle-orm';
import type { SessionUser } from '../../auth/sessions';
import type { Database } from '../../db/connection';
import { auditEvents, users } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import type { components } from '../../../shared/api/schema';
import { isEditableStatus } from '../../../shared/rules/transitions';

type StatusChange = components['schemas']['StatusChange'];

/**
 * The application's last change of status as the caller knows its maker (docs/decisions.md 431):
 * the audit entry that moved it to the status it has now, whichever call made it (a status change,
 * the envelope, the notice, the signature). The caller themself is 'you'; the client and the lawyer
 * are named (the caller works with them on the application); the provider's staff are not.
 */
export async function lastStatusChange(
  db: Database,
  actor: SessionUser,
  application: { id: number; status: string },
): Promise<StatusChange | undefined> {
  // Still where applications start: nothing moved on meanwhile, there is nothing to tell.
  if (isEditableStatus(application.status)) return undefined;
  const [row] = await db
    .select({ at: auditEvents.at, userId: users.id, role: users.role, firstName: users.firstName, surname: users.surname })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorUserId))
    .where(
      and(
        eq(auditEvents.entityType, 'application'),
        eq(auditEvents.entityId, String(application.id)),
        sql`${auditEvents.toState} ->> 'status' = ${application.status}`,
      ),
    )
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(1);
  if (!row) return undefined;
  const at = new Date(row.at).toISOString();
  const status = application.status as StatusChange['status'];
  if (row.userId === actor.id) return { status, at, by: 'you' };
  if (row.role === 'customer' || row.role === 'lawyer') {
    const name = [row.firstName, row.surname].filter(Boolean).join(' ');
    return { status, at, by: row.role === 'customer' ? 'client' : 'lawyer', ...(name ? { name } : {}) };
  }
  return { status, at, by: 'provider' };
}

/**
 * A 409 refusal because the application's status moved on, carrying who moved it and when
 * (`details.statusChange`) so the screen can say what happened instead of a bare code.
 */
export async function statusRefusal(
  db: Database,
  actor: SessionUser,
  application: { id: number; status: string },
  code: 'notEditable' | 'conflict',
): Promise<AppError> {
  const statusChange = await lastStatusChange(db, actor, application);
  return new AppError(409, code, statusChange ? { details: { statusChange } } : {});
}
