import { sql } from 'drizzle-orm';
import type { Database } from '../db/connection';
import { rateLimits } from '../db/schema';

/**
 * Fixed-window counters in the database, so every server process sees the same count.
 * `blockedFor` answers how many seconds a key must still wait (0 when it may go on).
 */
export async function blockedFor(db: Database, keys: { key: string; max: number }[], windowMs: number): Promise<number> {
  if (keys.length === 0) return 0;
  const rows = await db
    .select({ key: rateLimits.key, count: rateLimits.count, windowStartedAt: rateLimits.windowStartedAt })
    .from(rateLimits)
    .where(sql`${rateLimits.key} in ${keys.map((k) => k.key)} and ${rateLimits.windowStartedAt} > now() - ${windowMs} * interval '1 millisecond'`);
  let wait = 0;
  for (const row of rows) {
    const limit = keys.find((k) => k.key === row.key);
    if (limit && row.count >= limit.max) {
      const endsAt = row.windowStartedAt.getTime() + windowMs;
      wait = Math.max(wait, Math.ceil((endsAt - Date.now()) / 1000));
    }
  }
  return Math.max(wait, 0);
}

/** Counts one more event for each key; a window that has run out starts again at 1. */
export async function countEvent(db: Database, keys: string[], windowMs: number): Promise<void> {
  for (const key of keys) {
    await db.execute(sql`
      insert into rate_limits (key, window_started_at, count) values (${key}, now(), 1)
      on conflict (key) do update set
        count = case when rate_limits.window_started_at <= now() - ${windowMs} * interval '1 millisecond'
                     then 1 else rate_limits.count + 1 end,
        window_started_at = case when rate_limits.window_started_at <= now() - ${windowMs} * interval '1 millisecond'
                     then now() else rate_limits.window_started_at end`);
  }
}

export async function clearCounter(db: Database, key: string): Promise<void> {
  await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`);
}
