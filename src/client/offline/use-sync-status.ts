import { useAtomValue } from 'jotai';
import { useSyncExternalStore } from 'react';
import { useOnline } from '../api/connection';
import { sessionUserAtom } from '../session/session';
import { db, metaRowSchema, readRow } from './db';
import { countDraftsNeedingAttention } from './drafts';
import { engineState, subscribeEngineState, type SyncPhase } from './engine-state';
import { useSafeLiveQuery } from './live';
import { syncPhaseRowId } from './sync-phase';

/**
 * What the shell says of the sync (decision 342): the state, the writes waiting and the forms not
 * saved yet, in this tab and any other, read from the device's tables and the connection state.
 */

export interface SyncStatus {
  state: 'saved' | 'unsaved' | 'waiting' | 'syncing' | 'attention';
  /** Writes of the user still on the device. */
  waiting: number;
  /** Forms typed and kept on the device, not saved yet (drafts being edited). */
  unsaved?: number;
  /** The device is offline: the browser says so, or the server could not be reached (decision 401). */
  offline?: boolean;
}

/**
 * The shell's sync state for the signed-in user, in this tab and any other (decision 342):
 * "Needs your attention" while anything was refused, then "Syncing…" or the writes waiting, then
 * the forms typed but not saved yet; "All changes saved" only when none of these is left. Offline
 * is said beside the rest as soon as the connection state knows (decision 401).
 */
export function useSyncStatus(): SyncStatus {
  const user = useAtomValue(sessionUserAtom);
  const userId = user?.id ?? null;
  const online = useOnline();
  const localPhase = useSyncExternalStore(
    subscribeEngineState,
    () => engineState().phase,
    () => 'idle' as SyncPhase,
  );
  const leading = useSyncExternalStore(
    subscribeEngineState,
    () => engineState().leading,
    () => false,
  );
  const counts = useSafeLiveQuery(
    async () => {
      if (userId === null) return { waiting: 0, attention: 0, unsaved: 0, phase: 'idle' as SyncPhase };
      // Index counts only: this runs after every draft write, and upload rows hold the files' bytes.
      // One read transaction for the five (not one each): each answer the engine writes wakes this
      // query, as the count of waiting writes changes (decision 385).
      const [waiting, drafts, failedUploads, unsaved, meta] = await db.transaction(
        'r',
        [db.outbox, db.drafts, db.uploads, db.meta],
        () =>
          Promise.all([
            db.outbox.where('userId').equals(userId).count(),
            countDraftsNeedingAttention(userId),
            db.uploads.where('[userId+status]').equals([userId, 'failed']).count(),
            db.drafts.where('[userId+status]').equals([userId, 'editing']).count(),
            db.meta.get(syncPhaseRowId(userId)),
          ]),
      );
      const attention = drafts + failedUploads;
      const phase = readRow('meta', metaRowSchema, meta)?.phase ?? 'idle';
      return { waiting, attention, unsaved, phase };
    },
    [userId],
    { waiting: 0, attention: 0, unsaved: 0, phase: 'idle' as SyncPhase },
  );
  const waiting = counts?.waiting ?? 0;
  const unsaved = counts?.unsaved ?? 0;
  const phase = leading ? localPhase : (counts?.phase ?? 'idle');
  const offline = !online;
  const base = { waiting, unsaved, offline };
  if ((counts?.attention ?? 0) > 0) return { state: 'attention', ...base };
  if (waiting > 0 && phase === 'syncing' && online) return { state: 'syncing', ...base };
  if (waiting > 0) return { state: 'waiting', ...base };
  if (unsaved > 0) return { state: 'unsaved', ...base };
  return { state: 'saved', ...base };
}

/** The shell's words for a sync state (Offline is shown beside them: syncStatusOffline). */
export function syncStatusText({ state, waiting, unsaved = 0 }: SyncStatus): string {
  switch (state) {
    case 'saved':
      return 'All changes saved';
    case 'unsaved':
      return `${unsaved} ${unsaved === 1 ? 'form' : 'forms'} not saved yet`;
    case 'syncing':
      return 'Syncing…';
    case 'attention':
      return 'Needs your attention';
    case 'waiting':
      return `${waiting} ${waiting === 1 ? 'change' : 'changes'} waiting for a connection`;
  }
}

export const OFFLINE_TEXT = 'Offline';
