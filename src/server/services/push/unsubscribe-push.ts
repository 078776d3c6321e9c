import { and, eq } from 'drizzle-orm';
import { pushSubscriptions } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';

/** Turns notifications off for one of the caller's own devices (404 for anyone else's). Audited. */
export async function unsubscribePush({ db, actor }: ServiceContext, { id }: { id: number }): Promise<void> {
  await db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, actor.id)))
      .returning({ deviceLabel: pushSubscriptions.deviceLabel });
    if (!removed) throw AppError.notFound();
    await recordAudit(tx, {
      actorUserId: actor.id,
      entityType: 'pushSubscription',
      entityId: id,
      action: 'unsubscribed',
      from: { deviceLabel: removed.deviceLabel },
    });
  });
}
