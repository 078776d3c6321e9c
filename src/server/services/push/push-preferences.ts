import { eq, sql } from 'drizzle-orm';
import { pushPreferences } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import type { Database } from '../../db/connection';
import type { FieldCode } from '../../../shared/rules/error-codes';
import { notificationKindsOfRole, type NotificationKind } from '../../../shared/rules/notification-kinds';
import type { Role } from '../../../shared/rules/permissions';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';

async function kindsOn(db: Database, user: { id: number; role: Role }): Promise<NotificationKind[]> {
  const [row] = await db
    .select({ kindsOff: pushPreferences.kindsOff })
    .from(pushPreferences)
    .where(eq(pushPreferences.userId, user.id));
  const off = new Set(row?.kindsOff ?? []);
  return notificationKindsOfRole(user.role).filter((kind) => !off.has(kind));
}

/** The kinds the caller receives: every kind of their role until they choose. */
export async function getPushPreferences({ db, actor }: ServiceContext): Promise<{ kinds: NotificationKind[] }> {
  return { kinds: await kindsOn(db, actor) };
}

/**
 * The caller chooses the kinds they receive, among their role's only (400 fields.kinds.N
 * 'invalid' for another role's). Kept as the kinds turned off (docs/decisions.md 681). Audited.
 */
export async function updatePushPreferences(
  { db, actor }: ServiceContext,
  input: { kinds: NotificationKind[] },
): Promise<{ kinds: NotificationKind[] }> {
  const ofRole = notificationKindsOfRole(actor.role);
  const fields: Record<string, FieldCode> = {};
  input.kinds.forEach((kind, i) => {
    if (!ofRole.includes(kind)) fields[`kinds.${i}`] = 'invalid';
  });
  if (Object.keys(fields).length > 0) throw AppError.validation(fields);
  const kindsOff = ofRole.filter((kind) => !input.kinds.includes(kind));
  return db.transaction(async (tx) => {
    const before = await kindsOn(tx, actor);
    await tx
      .insert(pushPreferences)
      .values({ userId: actor.id, kindsOff })
      .onConflictDoUpdate({ target: pushPreferences.userId, set: { kindsOff, updatedAt: sql`now()` } });
    const kinds = await kindsOn(tx, actor);
    await recordAudit(tx, {
      actorUserId: actor.id,
      entityType: 'pushPreferences',
      entityId: actor.id,
      action: 'changed',
      from: { kinds: before },
      to: { kinds },
    });
    return { kinds };
  });
}
