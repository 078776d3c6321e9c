import { eq, sql } from 'drizzle-orm';
import { solicitors } from '../../db/schema';
import { type ServiceContext } from '../context';
import { solicitorUpdateSchema } from '../../../shared/schemas/administration';
import { recordAudit } from '../audit';
import { parseForm } from '../accounts/managed-accounts';
import { getSolicitor } from './get-solicitor';
import { lockSolicitor, toPence } from './solicitor-record';

/** Changes a solicitor; the email is read-only (the contract refuses it as unknownField). */
export async function updateSolicitor(ctx: ServiceContext, body: { solicitorId: number } & Record<string, unknown>) {
  const { db, actor: user } = ctx;
  const input = parseForm(solicitorUpdateSchema, body);
  await db.transaction(async (tx) => {
    const before = await lockSolicitor(tx, body.solicitorId);
    const changes = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.address !== undefined ? { address: input.address } : {}),
      ...(input.contactNumber !== undefined ? { contactNumber: input.contactNumber } : {}),
      ...(input.fee !== undefined ? { feePence: toPence(input.fee) } : {}),
      ...(input.deliveryMethod !== undefined ? { deliveryMethod: input.deliveryMethod } : {}),
    };
    if (Object.keys(changes).length === 0) return;
    await tx
      .update(solicitors)
      .set({ ...changes, updatedAt: sql`now()` })
      .where(eq(solicitors.id, before.id));
    const from = Object.fromEntries(Object.keys(changes).map((key) => [key, before[key as keyof typeof before]]));
    await recordAudit(tx, {
      actorUserId: user.id,
      entityType: 'solicitor',
      entityId: before.id,
      action: 'updated',
      from,
      to: changes,
    });
  });
  return getSolicitor(ctx, { id: body.solicitorId });
}
