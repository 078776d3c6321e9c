import { useAtomValue } from 'jotai';
import { sessionUserAtom } from '../session/session';
import { db, draftRowId, draftRowSchema, idMapRowSchema, newUuid, readRow, readRows, type IdMapRow } from './db';
import { renameDraftKeyPart } from './draft-keys';
import { useSafeLiveQuery } from './live';
import { currentUserId } from '../session/current-session';

/**
 * Local ids: a record made on the device has an id of its own (`<prefix><uuid>`) until the server
 * has made it. Writes name it freely; it is resolved when they are sent (a write whose local id is
 * not known yet waits), and once it is mapped the drafts, queued writes and stored files that name
 * it follow the server's id.
 */

/** Every local id ends with a uuid after a prefix naming what it is (`local-`, `upload-`, …). */
export function newLocalId(prefix: string): string {
  return `${prefix}${newUuid()}`;
}

/** A write names an id the server has not given yet: the engine keeps it and tries later. */
export class LocalIdNotYetKnown extends Error {
  constructor(readonly localId: string) {
    super(`local id not known yet: ${localId}`);
    this.name = 'LocalIdNotYetKnown';
  }
}

export async function readMapping(userId: number, localId: string): Promise<IdMapRow | undefined> {
  const row = readRow('idMap', idMapRowSchema, await db.idMap.get(localId));
  return row && row.userId === userId ? row : undefined;
}

/**
 * A reference as the server knows it: a number (or digits) as it is, a local id through the map.
 * Throws LocalIdNotYetKnown for a local id that is not mapped yet (send handlers let it through).
 */
export async function resolveId(userId: number, id: number | string): Promise<number> {
  if (typeof id === 'number') return id;
  if (/^\d+$/.test(id)) return Number(id);
  const mapped = await readMapping(userId, id);
  if (!mapped) throw new LocalIdNotYetKnown(id);
  return mapped.serverId;
}

/** The server id as a string ('42'), or null for a local id not mapped yet. */
export async function serverRef(userId: number, id: number | string): Promise<string | null> {
  if (typeof id === 'number' || /^\d+$/.test(id)) return String(id);
  const mapped = await readMapping(userId, id);
  return mapped ? String(mapped.serverId) : null;
}

/** Every name one record may go by on the device (its server id and each local id mapped to it). */
export async function aliasesOf(userId: number, id: number | string): Promise<Set<string>> {
  const names = new Set([String(id)]);
  const server = await serverRef(userId, id);
  if (server === null) return names;
  names.add(server);
  const mapped = readRows('idMap', idMapRowSchema, await db.idMap.where('userId').equals(userId).toArray());
  for (const row of mapped) if (String(row.serverId) === server) names.add(row.localId);
  return names;
}

/**
 * Records the server's id for a local id (inside the engine's transaction, from an onDone): drafts
 * whose key names the local id move to the server id, queued writes follow, and stored files owned
 * by it are owned by the server id.
 */
export async function mapLocalId(userId: number, localId: string, serverId: number, key?: string): Promise<void> {
  await db.idMap.put({ localId, userId, serverId, ...(key === undefined ? {} : { key }) });
  const drafts = readRows('drafts', draftRowSchema, await db.drafts.where('userId').equals(userId).toArray());
  for (const draft of drafts) {
    const renamed = renameDraftKeyPart(draft.key, localId, serverId);
    if (renamed === draft.key) continue;
    await db.drafts.delete(draft.id);
    await db.drafts.put({ ...draft, id: draftRowId(userId, renamed), key: renamed });
  }
  const queued = await db.outbox.where('userId').equals(userId).toArray();
  for (const row of queued) {
    if (row.draftKey === undefined) continue;
    const renamed = renameDraftKeyPart(row.draftKey, localId, serverId);
    if (renamed !== row.draftKey) await db.outbox.update(row.seq, { draftKey: renamed });
  }
  const files = await db.uploads.where('[userId+owner]').equals([userId, localId]).toArray();
  for (const file of files) await db.uploads.put({ ...file, owner: String(serverId) });
}

/** Forgets a local id's mapping (a stored file removed from the device). */
export async function forgetLocalId(localId: string): Promise<void> {
  await db.idMap.delete(localId);
}

/** The server id of a local id of the signed-in user, once known (else undefined). */
export async function serverIdOf(localId: string): Promise<number | undefined> {
  const userId = currentUserId();
  if (userId === null) return undefined;
  return (await readMapping(userId, localId))?.serverId;
}

/**
 * The id to use for a record: a local id the server has named becomes the server's id (a screen
 * then moves its URL there); anything else is returned as it is.
 */
export function useResolvedId(id: number | string | null, isLocal: (id: unknown) => id is string): number | string | null {
  const user = useAtomValue(sessionUserAtom);
  const mapped = useSafeLiveQuery(
    async () => {
      if (!isLocal(id) || !user) return undefined;
      return (await readMapping(user.id, id))?.serverId;
    },
    [id, user?.id],
    undefined,
  );
  return mapped ?? id;
}
