import { useAtomValue } from 'jotai';
import type { Role } from '../../shared/rules/permissions';
import { sessionUserAtom } from '../session/session';
import { db, draftRowSchema, fileRowSchema, outboxRowSchema, readRows, type DraftRow, type FileRow } from './db';
import { parseDraftKey } from './draft-keys';
import { useSafeLiveQuery } from './live';
import { handlerOf } from './mutation-registry';

/**
 * What waits on the device for the user, in one place (decision 342): writes the server refused or
 * that conflict, files that failed to upload, writes waiting for a connection, and forms typed but
 * not saved yet. The shell's status counts them; the "changes on this device" page lists them, each
 * with a link to where it is fixed; lists flag the records they concern. The engine names no
 * feature: each feature says where its drafts, writes and files are fixed (`register…Place`).
 */

/** Where a waiting thing is seen and fixed. */
export interface Place {
  /** What it is, in the user's words ('Application 12: Case details'). */
  label: string;
  href: string;
  /**
   * Every other page (a path, without its query) whose figures or lists the write will change: the
   * page lists it among the requests waiting on this device for it (decision 404).
   */
  pages?: readonly string[];
}

export interface PlaceContext {
  role: Role;
}

type DraftPlace = (parts: string[], context: PlaceContext, draft: DraftRow) => Place | null;
type WritePlace = (payload: unknown, context: PlaceContext) => Place | null;
type FilePlace = (file: FileRow, context: PlaceContext) => Place | null;

const draftPlaces = new Map<string, DraftPlace>();
const writePlaces = new Map<string, WritePlace>();
let filePlace: FilePlace | null = null;

/** Where the drafts of a kind (`draftKey(kind, …parts)`) are seen: the feature that names them says. */
export function registerDraftPlace(kind: string, place: DraftPlace): void {
  draftPlaces.set(kind, place);
}

/** Where a queued write of a kind is seen (its payload as stored). */
export function registerWritePlace<P>(kind: string, place: (payload: P, context: PlaceContext) => Place | null): void {
  writePlaces.set(kind, place as WritePlace);
}

/** Where a stored file (an upload) is seen. */
export function registerFilePlace(place: FilePlace): void {
  filePlace = place;
}

export function placeOfDraft(draft: DraftRow, context: PlaceContext): Place | null {
  const { kind, parts } = parseDraftKey(draft.key);
  return draftPlaces.get(kind)?.(parts, context, draft) ?? null;
}

export type WaitingReason =
  /** The server refused it: `code` says why (error-codes.ts). */
  | { type: 'refused'; code: string }
  /** Someone else changed the record meanwhile: the user chooses what to keep. */
  | { type: 'conflict' }
  /** A file that could not be uploaded: `code` says why when known. */
  | { type: 'failedUpload'; code: string | undefined; fileName: string }
  /** Kept in the outbox until the server can be reached. */
  | { type: 'queued' }
  /** Typed and kept on this device, not saved yet. */
  | { type: 'unsaved' };

export interface WaitingItem {
  id: string;
  reason: WaitingReason;
  place: Place | null;
  at: number;
}

export interface Waiting {
  /** Refused, conflicting, failed: the user must act. */
  attention: WaitingItem[];
  queued: WaitingItem[];
  unsaved: WaitingItem[];
}

const nothing: Waiting = { attention: [], queued: [], unsaved: [] };

/** Everything waiting on the device for this user (reads rows: for the page, not the shell's counts). */
export async function readWaiting(userId: number, context: PlaceContext): Promise<Waiting> {
  const [draftRows, outboxRows, failedFiles] = await Promise.all([
    db.drafts.where('userId').equals(userId).toArray(),
    db.outbox.where('userId').equals(userId).toArray(),
    db.uploads.where('[userId+status]').equals([userId, 'failed']).toArray(),
  ]);
  const drafts = readRows('drafts', draftRowSchema, draftRows);
  const attention: WaitingItem[] = [];
  const unsaved: WaitingItem[] = [];
  for (const draft of drafts) {
    const place = placeOfDraft(draft, context);
    if (draft.status === 'rejected')
      attention.push({
        id: draft.id,
        reason: { type: 'refused', code: draft.serverError ?? 'validation' },
        place,
        at: draft.updatedAt,
      });
    else if (draft.status === 'conflict')
      attention.push({ id: draft.id, reason: { type: 'conflict' }, place, at: draft.updatedAt });
    else if (draft.status === 'editing') unsaved.push({ id: draft.id, reason: { type: 'unsaved' }, place, at: draft.updatedAt });
  }
  for (const file of readRows('uploads', fileRowSchema, failedFiles)) {
    attention.push({
      id: `file|${file.localId}`,
      reason: { type: 'failedUpload', code: file.error, fileName: file.fileName },
      place: filePlace?.(file, context) ?? null,
      at: file.createdAt,
    });
  }
  const queued = readRows('outbox', outboxRowSchema, outboxRows)
    .filter((row) => handlerOf(row.kind) !== undefined)
    .map<WaitingItem>((row) => ({
      id: row.id,
      reason: { type: 'queued' },
      place: writePlaces.get(row.kind)?.(row.payload, context) ?? null,
      at: row.createdAt,
    }));
  return { attention, queued, unsaved };
}

/** What waits on the device for the signed-in user, kept up to date in every tab. */
export function useWaiting(): Waiting | undefined {
  const user = useAtomValue(sessionUserAtom);
  return useSafeLiveQuery(
    async () => (user ? readWaiting(user.id, { role: user.role }) : nothing),
    [user?.id, user?.role],
    nothing,
  );
}

/** Whether a waiting thing concerns the page at `pathname` (its own page, or one it changes). */
export function concernsPage(place: Place | null, pathname: string): boolean {
  if (!place) return false;
  const path = (href: string) => href.split(/[?#]/)[0];
  return path(place.href) === pathname || (place.pages ?? []).some((page) => path(page) === pathname);
}

/**
 * The user's writes waiting in the outbox that concern the page at `pathname`, oldest first, in
 * every tab as they change (reads the outbox only; decision 404).
 */
export function useQueuedFor(pathname: string): readonly WaitingItem[] {
  const user = useAtomValue(sessionUserAtom);
  const result = useSafeLiveQuery(
    async (): Promise<WaitingItem[]> => {
      if (!user) return [];
      const rows = readRows('outbox', outboxRowSchema, await db.outbox.where('userId').equals(user.id).toArray());
      const context = { role: user.role };
      return rows
        .filter((row) => handlerOf(row.kind) !== undefined)
        .map<WaitingItem>((row) => ({
          id: row.id,
          reason: { type: 'queued' },
          place: writePlaces.get(row.kind)?.(row.payload, context) ?? null,
          at: row.createdAt,
        }))
        .filter((item) => concernsPage(item.place, pathname));
    },
    [user?.id, user?.role, pathname],
    [],
  );
  return result ?? [];
}

export interface Refusals {
  /** Keys of the user's drafts the server refused or that conflict. */
  draftKeys: readonly string[];
  /** Owners (a record's id, as the feature stored it) of files that failed to upload. */
  fileOwners: readonly string[];
}

const noRefusals: Refusals = { draftKeys: [], fileOwners: [] };

/** The user's refused writes: the refused drafts and failed files only. */
export async function readRefusals(userId: number): Promise<Refusals> {
  const [drafts, files] = await Promise.all([
    db.drafts
      .where('[userId+status]')
      .anyOf([
        [userId, 'rejected'],
        [userId, 'conflict'],
      ])
      .toArray(),
    db.uploads.where('[userId+status]').equals([userId, 'failed']).toArray(),
  ]);
  return {
    draftKeys: readRows('drafts', draftRowSchema, drafts).map((draft) => draft.key),
    fileOwners: readRows('uploads', fileRowSchema, files).map((file) => file.owner),
  };
}

/**
 * The user's refused writes, for a list to flag the records they concern (the feature reads its
 * own keys with its own parser).
 */
export function useRefusals(): Refusals {
  const user = useAtomValue(sessionUserAtom);
  const result = useSafeLiveQuery(
    async (): Promise<Refusals> => (user ? readRefusals(user.id) : noRefusals),
    [user?.id],
    noRefusals,
  );
  return result ?? noRefusals;
}
