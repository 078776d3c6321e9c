import { sql } from 'drizzle-orm';
import type { Database } from '../db/connection';
import { SESSION_IDLE_TIMEOUT_MS } from '../../shared/rules/limits';
import { repeatInBackground } from '../background/repeat';

/** How long spent records are kept for a look afterwards before they go. */
const KEEP_SPENT_MS = 30 * 24 * 60 * 60 * 1000;
/** An offline outbox is replayed within days, not weeks. */
const KEEP_IDEMPOTENCY_KEYS_MS = 7 * 24 * 60 * 60 * 1000;
/** Rate-limit windows are minutes long; a day-old counter counts nothing. */
const KEEP_RATE_LIMITS_MS = 24 * 60 * 60 * 1000;

const ago = (ms: number) => sql`now() - ${ms} * interval '1 millisecond'`;

/**
 * Deletes what can never matter again: finished rate-limit windows, ended sessions, used or
 * expired links, old idempotency keys and old push notifications. Safe to run in every process at once.
 */
export async function removeSpentRecords(db: Database): Promise<void> {
  await db.execute(sql`delete from rate_limits where window_started_at < ${ago(KEEP_RATE_LIMITS_MS)}`);
  await db.execute(sql`delete from sessions where (revoked_at is not null and revoked_at < ${ago(KEEP_SPENT_MS)})
    or last_seen_at < ${ago(SESSION_IDLE_TIMEOUT_MS + KEEP_SPENT_MS)}`);
  await db.execute(sql`delete from user_tokens where (used_at is not null and used_at < ${ago(KEEP_SPENT_MS)})
    or expires_at < ${ago(KEEP_SPENT_MS)}`);
  await db.execute(sql`delete from idempotency_keys where created_at < ${ago(KEEP_IDEMPOTENCY_KEYS_MS)}`);
  // Push notifications are sent or given up within hours (docs/decisions.md 678).
  await db.execute(sql`delete from push_outbox where created_at < ${ago(KEEP_SPENT_MS)}`);
}

export function startHousekeeping(db: Database, log: (msg: string, err: unknown) => void, everyMs = 60 * 60 * 1000): () => void {
  return repeatInBackground({ name: 'housekeeping', everyMs, log, run: () => removeSpentRecords(db) });
}
