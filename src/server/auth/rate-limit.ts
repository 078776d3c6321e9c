import { and, eq, sql } from 'drizzle-orm';
import { queryRows, type Database } from '../db/connection';
import { rateLimits } from '../db/schema';

export interface Limit {
  key: string;
  max: number;
}

/** An attempt counted on one key: enough to give it back to the window it was counted in. */
export interface Taken {
  key: string;
  /** The window's start exactly as stored (text keeps PostgreSQL's microseconds). */
  window: string;
}

export type Attempt = { allowed: true; taken: Taken[] } | { allowed: false; retryAfter: number };

/**
 * Fixed-window counters in the database, so every server process sees the same count.
 *
 * An attempt is counted *before* the work it guards, one key at a time in the order given, each
 * with a single-row statement that counts only while the key is under its limit. At the first key
 * that is full the attempt is refused and the keys already counted are given back; keys after it
 * are never touched. So parallel requests cannot slip past the limit, a refused request leaves no
 * trace, and no statement locks more than one row (no deadlocks between processes).
 */
export async function takeAttempt(db: Database, limits: Limit[], windowMs: number): Promise<Attempt> {
  const taken: Taken[] = [];
  const expired = sql`rate_limits.window_started_at <= now() - ${windowMs} * interval '1 millisecond'`;
  for (const limit of limits) {
    const [row] = await queryRows<{ window: string }>(
      db,
      sql`
      insert into rate_limits (key, window_started_at, count) values (${limit.key}, now(), 1)
      on conflict (key) do update set
        count = case when ${expired} then 1 else rate_limits.count + 1 end,
        window_started_at = case when ${expired} then now() else rate_limits.window_started_at end
      where ${expired} or rate_limits.count < ${limit.max}
      returning window_started_at::text as window`,
    );
    if (!row) {
      await giveBack(db, taken);
      return { allowed: false, retryAfter: await secondsLeft(db, limit.key, windowMs) };
    }
    taken.push({ key: limit.key, window: row.window });
  }
  return { allowed: true, taken };
}

/** Gives attempts back, each to the window it was counted in (a window that restarted keeps its count). */
export async function giveBack(db: Database, taken: Taken[]): Promise<void> {
  for (const { key, window } of taken) {
    await db
      .update(rateLimits)
      .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
      .where(and(eq(rateLimits.key, key), sql`${rateLimits.windowStartedAt} = ${window}::timestamptz`));
  }
}

async function secondsLeft(db: Database, key: string, windowMs: number): Promise<number> {
  const [row] = await db.select({ windowStartedAt: rateLimits.windowStartedAt }).from(rateLimits).where(eq(rateLimits.key, key));
  const endsAt = (row?.windowStartedAt.getTime() ?? Date.now()) + windowMs;
  return Math.max(Math.ceil((endsAt - Date.now()) / 1000), 1);
}

export async function clearCounters(db: Database, keys: string[]): Promise<void> {
  for (const key of keys) await db.delete(rateLimits).where(eq(rateLimits.key, key));
}
