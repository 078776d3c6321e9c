import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { firms, users } from '../../db/schema';
import { type ServiceContext } from '../context';
import { firmUpdateSchema } from '../../../shared/schemas/administration';
import { recordAudit } from '../audit';
import { parseForm } from '../accounts/managed-accounts';
import { lockFirm } from './firm-record';
import { getFirm } from './get-firm';

/** Changes the firm's name and its admin's names; the admin's login is read-only. */
export async function updateFirm(
  ctx: ServiceContext,
  body: { firmId: number; firmName?: string; firstName?: string; surname?: string },
) {
  const { db, actor: user } = ctx;
  const input = parseForm(firmUpdateSchema, body);
  await db.transaction(async (tx) => {
    const firm = await lockFirm(tx, body.firmId);
    if (input.firmName !== undefined && input.firmName !== firm.name) {
      await tx
        .update(firms)
        .set({ name: input.firmName, updatedAt: sql`now()` })
        .where(eq(firms.id, firm.id));
      await recordAudit(tx, {
        actorUserId: user.id,
        entityType: 'firm',
        entityId: firm.id,
        action: 'updated',
        from: { firmName: firm.name },
        to: { firmName: input.firmName },
      });
    }
    const names = {
      ...(input.firstName !== undefined ? { firstName: input.firstName } : {}),
      ...(input.surname !== undefined ? { surname: input.surname } : {}),
    };
    if (Object.keys(names).length === 0) return;
    const [admin] = await tx
      .select({ id: users.id, firstName: users.firstName, surname: users.surname })
      .from(users)
      .where(and(eq(users.firmId, firm.id), eq(users.role, 'firm'), isNull(users.deletedAt)))
      .orderBy(asc(users.id))
      .limit(1)
      .for('update');
    if (!admin) return;
    await tx
      .update(users)
      .set({ ...names, updatedAt: sql`now()` })
      .where(eq(users.id, admin.id));
    await recordAudit(tx, {
      actorUserId: user.id,
      entityType: 'user',
      entityId: admin.id,
      action: 'updated',
      from: { firstName: admin.firstName, surname: admin.surname },
      to: names,
    });
  });
  return getFirm(ctx, { id: body.firmId });
}
