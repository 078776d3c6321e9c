import { sql } from 'drizzle-orm';
import type { Database } from '../db/connection';
import type { NotificationKind } from '../../shared/rules/notification-kinds';

/** The title every notification shows (the service worker shows it as written). */
export const PUSH_TITLE = 'Litigation funding';

/** What a device receives, encrypted to it: the service worker reads this JSON. */
export interface PushPayload {
  title: string;
  body: string;
  /** A path in the portal, e.g. /drawdowns/12. */
  link: string;
  kind: NotificationKind;
  /** Whom it is for: a device signed in as someone else drops it. */
  userId: number;
}

/**
 * Queues a notification for every device of the user that has the kind turned on, in the caller's
 * transaction: it is sent only if the change that caused it commits, by the push sender, after the
 * commit (docs/decisions.md 677). A user with no device, or who turned the kind off, gets no row.
 */
export async function enqueuePush(
  db: Database,
  push: { userId: number; kind: NotificationKind; text: string; link: string },
): Promise<void> {
  const payload: PushPayload = { title: PUSH_TITLE, body: push.text, link: push.link, kind: push.kind, userId: push.userId };
  await db.execute(sql`
    insert into push_outbox (subscription_id, user_id, kind, payload)
    select s.id, s.user_id, ${push.kind}, ${JSON.stringify(payload)}
    from push_subscriptions s
    where s.user_id = ${push.userId}
      and not exists (select 1 from push_preferences p where p.user_id = s.user_id and ${push.kind} = any(p.kinds_off))
    order by s.id`);
}
