import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../db/connection';
import { newFileKey, type FileStorage } from '../files/storage';
import { MIGRATIONS_FOLDER } from '../paths';

/** What /readyz checks; each name is logged with its reason when it fails, never answered. */
export type ReadinessCheck = 'database' | 'migrations' | 'files';

export type Readiness = { ready: true } | { ready: false; failed: ReadinessCheck; reason: string };

/** A check that takes longer than this fails: a load balancer must hear back well within its own timeout. */
export const READINESS_TIMEOUT_MS = 2_000;

/** The newest migration this code was built with (drizzle's journal), read once. */
let newestMigration: number | undefined;
function newestMigrationMillis(): number {
  if (newestMigration === undefined) {
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
      entries: { when: number }[];
    };
    newestMigration = Math.max(...journal.entries.map((entry) => entry.when));
  }
  return newestMigration;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

function withinTime<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${READINESS_TIMEOUT_MS} ms`)), READINESS_TIMEOUT_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * The database answers and holds every migration this code knows (drizzle records each applied
 * one with its journal time: one indexed read of one small table), and the file store takes a
 * one-byte write and gives it up again (docs/decisions.md 561).
 */
export async function checkReadiness(db: Database, storage: FileStorage): Promise<Readiness> {
  let applied: number;
  try {
    const [row] = await withinTime(
      queryRows<{ newest: string | number | null }>(db, sql`select max(created_at) as newest from drizzle.__drizzle_migrations`),
      'the database',
    );
    applied = Number(row?.newest ?? 0);
  } catch (error) {
    return { ready: false, failed: 'database', reason: describe(error) };
  }
  if (applied < newestMigrationMillis())
    return { ready: false, failed: 'migrations', reason: 'the database lacks a migration this server needs' };
  const key = newFileKey();
  try {
    await withinTime(
      storage.put(key, Uint8Array.of(0)).then(() => storage.remove(key)),
      'the file store',
    );
  } catch (error) {
    return { ready: false, failed: 'files', reason: describe(error) };
  }
  return { ready: true };
}
