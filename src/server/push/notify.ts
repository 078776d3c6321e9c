import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../db/connection';
import { notificationAudience, type NotificationAudience } from '../../shared/rules/notification-kinds';
import { pushMessage, type PushSubject } from './messages';
import { enqueuePush } from './outbox';

/**
 * The people a kind goes to for one application (its case): the client of the application, its
 * lawyer, or every staff user (admin and root) who has a device subscribed. Deleted accounts get nothing.
 */
export async function pushRecipients(db: Database, audience: NotificationAudience, applicationId: number): Promise<number[]> {
  const rows = await queryRows<{ user_id: number }>(
    db,
    audience === 'staff'
      ? sql`select distinct s.user_id from push_subscriptions s join users u on u.id = s.user_id
            where u.role in ('admin', 'root') and u.deleted_at is null order by s.user_id`
      : audience === 'client'
        ? sql`select c.user_id from applications a join clients c on c.id = a.client_id join users u on u.id = c.user_id
              where a.id = ${applicationId} and u.deleted_at is null`
        : sql`select l.user_id from applications a join lawyers l on l.id = a.lawyer_id join users u on u.id = l.user_id
              where a.id = ${applicationId} and u.deleted_at is null`,
  );
  return rows.map((row) => row.user_id);
}

/**
 * Queues the notification of an event for everyone its kind is for, in the caller's transaction
 * (docs/decisions.md 677, 683): sent only if the change commits.
 */
export async function notifyByPush(db: Database, subject: PushSubject): Promise<void> {
  const message = pushMessage(subject);
  for (const userId of await pushRecipients(db, notificationAudience[subject.kind], subject.applicationId))
    await enqueuePush(db, { userId, ...message });
}
