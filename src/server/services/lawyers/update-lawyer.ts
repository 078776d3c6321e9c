import { eq, sql } from 'drizzle-orm';
import { users } from '../../db/schema';
import { type ServiceContext } from '../context';
import { lawyerUpdateSchema } from '../../../shared/schemas/administration';
import { recordAudit } from '../audit';
import { parseForm } from '../accounts/managed-accounts';
import { getLawyer } from './get-lawyer';
import { lockLawyer } from './lawyer-record';

/** Changes a lawyer's names; the login is read-only (the contract refuses it as unknownField). */
export async function updateLawyer(ctx: ServiceContext, body: { lawyerId: number; firstName?: string; surname?: string }) {
  const { db, actor: user } = ctx;
  const input = parseForm(lawyerUpdateSchema, body);
  await db.transaction(async (tx) => {
    const lawyer = await lockLawyer(tx, user, body.lawyerId);
    const changes = {
      ...(input.firstName !== undefined ? { firstName: input.firstName } : {}),
      ...(input.surname !== undefined ? { surname: input.surname } : {}),
    };
    if (Object.keys(changes).length === 0) return;
    await tx
      .update(users)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(eq(users.id, lawyer.userId));
    await recordAudit(tx, {
      actorUserId: user.id,
      entityType: 'lawyer',
      entityId: lawyer.id,
      action: 'updated',
      from: { firstName: lawyer.firstName, surname: lawyer.surname },
      to: changes,
    });
  });
  return getLawyer(ctx, { id: body.lawyerId });
}
