import { useEffect } from 'react';
import { useAtomValue, useStore } from 'jotai';
import { sessionUserAtom } from '../session/session';
import { db, fileRowSchema, readRow, readRows, type FileRow } from './db';
import { useSafeLiveQuery } from './live';
import { bindSessionStore } from '../session/current-session';

/**
 * Files kept on the device until they are sent (their bytes in IndexedDB, so a file chosen offline
 * survives a reload), each named by a local id and owned by a record (a server id or a local id).
 * Features keep and read them only through these functions.
 */

export type StoredFile = FileRow;

/** How a feature names the owner field its file rows had before the store called it `owner` (db.ts). */
export { registerLegacyOwnerField } from './db';

export async function readStoredFile(userId: number, localId: string): Promise<StoredFile | undefined> {
  const row = readRow('uploads', fileRowSchema, await db.uploads.get(localId));
  return row && row.userId === userId ? row : undefined;
}

/** The user's files owned by `owner`, oldest first. */
export async function readStoredFiles(userId: number, owner: string): Promise<StoredFile[]> {
  const rows = await db.uploads.where('[userId+owner]').equals([userId, owner]).toArray();
  return readRows('uploads', fileRowSchema, rows).sort((a, b) => a.createdAt - b.createdAt);
}

export async function addStoredFile(row: StoredFile): Promise<void> {
  await db.uploads.add(row);
}

/**
 * Changes a file's row by get and put: Dexie's update() clones the row's object and, in some
 * environments, turns the file's ArrayBuffer into a plain object on the way. A patch naming a field
 * with the value undefined removes it.
 */
export async function patchStoredFile(localId: string, patch: Partial<StoredFile>): Promise<void> {
  await db.transaction('rw', db.uploads, async () => {
    const row = await db.uploads.get(localId);
    if (!row) return;
    const next: Record<string, unknown> = { ...row, ...patch };
    for (const [field, value] of Object.entries(patch)) if (value === undefined) delete next[field];
    await db.uploads.put(next as StoredFile);
  });
}

export async function deleteStoredFile(localId: string): Promise<void> {
  await db.uploads.delete(localId);
}

/** The signed-in user's files owned by `owner`, live, oldest first. */
export function useStoredFiles(owner: string): StoredFile[] {
  const store = useStore();
  useEffect(() => bindSessionStore(store), [store]);
  const user = useAtomValue(sessionUserAtom);
  const rows = useSafeLiveQuery(async () => (user ? readStoredFiles(user.id, owner) : []), [user?.id, owner], []);
  return rows ?? [];
}
