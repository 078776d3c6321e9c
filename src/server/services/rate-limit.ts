import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../db/connection';
import { rateLimits } from '../db/schema';

export interface Limit {
  key: string;
  max: number;
}

/**
 * Fixed-window counters in the database, so every server process sees the same count.
 *
 * An attempt is counted *before* the work it guards, in one statement per key, so parallel
 * requests cannot all slip past a check made before any of them was counted. Answers how many
 * seconds the caller must wait (0: go on). A refused attempt is not counted again.
 */
export async function takeAttempt(db: Database, limits: Limit[], windowMs: number): Promise<number> {
  let wait = 0;
  for (const limit of limits) {
    const [row] = await queryRows<{ count: number; window_started_at: Date | string }>(
      db,
      sql`
      insert into rate_limits (key, window_started_at, count) values (${limit.key}, now(), 1)
      on conflict (key) do update set
        count = case when rate_limits.window_started_at <= now() - ${windowMs} * interval '1 millisecond'
                     then 1 else rate_limits.count + 1 end,
        window_started_at = case when rate_limits.window_started_at <= now() - ${windowMs} * interval '1 millisecond'
                     then now() else rate_limits.window_started_at end
      returning count, window_started_at`,
    );
    if (row && row.count > limit.max) {
      const endsAt = new Date(row.window_started_at).getTime() + windowMs;
      wait = Math.max(wait, Math.ceil((endsAt - Date.now()) / 1000), 1);
    }
  }
  if (wait > 0) await giveBack(db, limits.map((l) => l.key));
  return wait;
}

/** Takes one attempt back off each key (a refused attempt, or one that succeeded). */
export async function giveBack(db: Database, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.execute(sql`update rate_limits set count = greatest(count - 1, 0) where key in ${keys}`);
}

export async function clearCounter(db: Database, key: string): Promise<void> {
  await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`);
}
