import { db, metaRowSchema, readRow, syncPhaseRowId } from './db';
import { engineState, updateEngineState, type SyncPhase } from './engine-state';
import { currentUserId } from '../session/current-session';

/**
 * The sync engine's phase (syncing, offline, paused, idle), in this tab and for the tabs that follow
 * (the user's phase row: the sync status of a tab that follows reads it, and the read layer waits for
 * the end of a sync before screens read again, cache.ts).
 */

export { syncPhaseRowId } from './db';

/** This tab's phase, and the user's phase row when it changes. */
export async function setPhase(phase: SyncPhase): Promise<void> {
  if (engineState().phase !== phase) updateEngineState({ phase });
  const userId = currentUserId();
  if (userId === null) return;
  const id = syncPhaseRowId(userId);
  const previous = readRow('meta', metaRowSchema, await db.meta.get(id).catch(() => undefined));
  if (previous?.phase !== phase) await db.meta.put({ id, phase, at: Date.now() }).catch(() => undefined);
}
