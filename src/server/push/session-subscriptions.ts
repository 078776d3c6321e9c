import { sql } from 'drizzle-orm';
import type { Database } from '../db/connection';

/**
 * A device signed out receives nothing more (docs/decisions.md 680): the subscriptions made in an
 * ended session go with it, with their queued notifications. `userId` ends them all (every session
 * of the account ended: a password change, a withdrawal).
 */
export async function removeSessionSubscriptions(db: Database, ended: { sessionId: number } | { userId: number }): Promise<void> {
  if ('sessionId' in ended) await db.execute(sql`delete from push_subscriptions where session_id = ${ended.sessionId}`);
  else await db.execute(sql`delete from push_subscriptions where user_id = ${ended.userId}`);
}
