import { desc, eq } from 'drizzle-orm';
import { pushSubscriptions } from '../../db/schema';
import type { ServiceContext } from '../context';

export interface PushSubscriptionRecord {
  id: number;
  deviceLabel: string;
  createdAt: string;
  thisDevice: boolean;
}

/** The caller's own devices, newest first; `thisDevice` marks the one made in this session. */
export async function listPushSubscriptions(
  { db, actor }: ServiceContext,
  { sessionId }: { sessionId: number },
): Promise<{ items: PushSubscriptionRecord[] }> {
  const rows = await db
    .select({
      id: pushSubscriptions.id,
      deviceLabel: pushSubscriptions.deviceLabel,
      createdAt: pushSubscriptions.createdAt,
      sessionId: pushSubscriptions.sessionId,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, actor.id))
    .orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.id));
  return {
    items: rows.map((row) => ({
      id: row.id,
      deviceLabel: row.deviceLabel,
      createdAt: row.createdAt.toISOString(),
      thisDevice: row.sessionId === sessionId,
    })),
  };
}
