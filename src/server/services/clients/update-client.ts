import { eq, sql } from 'drizzle-orm';
import { clients, users } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { type ServiceContext } from '../context';
import { clientUpdateSchema } from '../../../shared/schemas/administration';
import { recordAudit } from '../audit';
import { parseForm } from '../accounts/managed-accounts';
import { clientOfApplication } from './client-record';
import { getClient } from './get-client';

/**
 * Changes a client's names, phone number and date of birth (the spec's update sends the
 * applicationId). The email is read-only. The account's names follow, so the session shows them.
 */
export async function updateClient(
  ctx: ServiceContext,
  body: { applicationId: number; firstName?: string; lastName?: string; birthDay?: string | null; contactNumber?: string },
) {
  const { db, actor: user } = ctx;
  const input = parseForm(clientUpdateSchema, body);
  const clientId = await clientOfApplication(db, user, body.applicationId);
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(clients).where(eq(clients.id, clientId)).for('update');
    if (!before) throw AppError.notFound();
    const changes = {
      ...(input.firstName !== undefined ? { firstName: input.firstName } : {}),
      ...(input.lastName !== undefined ? { lastName: input.lastName } : {}),
      ...(input.contactNumber !== undefined ? { contactNumber: input.contactNumber } : {}),
      ...(input.birthDay !== undefined ? { birthDate: input.birthDay } : {}),
    };
    if (Object.keys(changes).length === 0) return;
    await tx
      .update(clients)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(eq(clients.id, clientId));
    if (input.firstName !== undefined || input.lastName !== undefined) {
      await tx
        .update(users)
        .set({
          ...(input.firstName !== undefined ? { firstName: input.firstName } : {}),
          ...(input.lastName !== undefined ? { surname: input.lastName } : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(users.id, before.userId));
    }
    const previous = Object.fromEntries(Object.keys(changes).map((key) => [key, before[key as keyof typeof before]]));
    await recordAudit(tx, {
      actorUserId: user.id,
      entityType: 'client',
      entityId: clientId,
      action: 'updated',
      from: previous,
      to: changes,
    });
  });
  return getClient(ctx, { id: clientId });
}
