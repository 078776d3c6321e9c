import { isNull } from 'drizzle-orm';
import type { Database } from '../db/connection';
import { files } from '../db/schema';
import type { FileStorage } from './storage';
import { repeatInBackground } from '../background/repeat';

/**
 * Bytes younger than this are left alone: an upload's bytes are in place a moment before its row
 * is written, and a partial write may still be arriving (a body may take REQUEST_TIMEOUT_MS).
 */
const FILE_GRACE_MS = 60 * 60 * 1000;

/**
 * Removes bytes nothing references: partial writes a dropped upload or a dead process left, and
 * files without a live row (a deleted file whose removal failed, an upload whose row was never
 * written). Returns what it removed. Safe in every process at once.
 */
export async function removeUnreferencedFiles(
  db: Database,
  storage: FileStorage,
  options: { graceMs?: number; now?: Date } = {},
): Promise<string[]> {
  const cutoff = (options.now ?? new Date()).getTime() - (options.graceMs ?? FILE_GRACE_MS);
  const old = (await storage.inventory()).filter((entry) => entry.modifiedAt.getTime() < cutoff);
  if (old.length === 0) return [];
  // Read after the inventory: a row written meanwhile is seen, so its bytes are kept.
  const referenced = new Set(
    (await db.select({ key: files.key }).from(files).where(isNull(files.deletedAt))).map((row) => row.key),
  );
  const removed: string[] = [];
  for (const entry of old) {
    if (!entry.partial && referenced.has(entry.name)) continue;
    await storage.discard(entry.name);
    removed.push(entry.name);
  }
  return removed;
}

export function startFileHousekeeping(
  db: Database,
  storage: FileStorage,
  log: (msg: string, err: unknown) => void,
  everyMs = 60 * 60 * 1000,
): () => void {
  return repeatInBackground({
    name: 'removing unreferenced files',
    everyMs,
    log,
    run: () => removeUnreferencedFiles(db, storage),
  });
}
