import { liveQuery } from 'dexie';
import * as v from 'valibot';
import { db, newUuid, outboxRowSchema, readRow, readRows, resultRowSchema, type ResultRow } from './db';
import { countDraftsNeedingAttention, currentDraftKey, flushDraft, moveDraftRow, readDraftRow } from './drafts';
import { engineState, requestSync, subscribeEngineState } from './engine-state';
import { handlerOf, type MutationKind, type MutationKinds } from './mutation-registry';
import { reportStorageError } from './persist';
import { requireUserId } from '../session/current-session';

/**
 * The outbox: writes that must reach the server, kept on the device in the order they were made.
 * Each has a client-made id, sent as its Idempotency-Key on every attempt, so a retry after a lost
 * answer is answered with the first result instead of writing twice.
 */

/**
 * What `enqueue` takes: a registered kind and its payload. `draftKey` names the draft the write
 * came from; `draftFrom`, a draft kept under another key until now (a new record's form, before the
 * record has an id), which becomes that draft in the same transaction as the write is queued.
 */
export type MutationInput = {
  [K in MutationKind]: { kind: K; draftKey?: string; draftFrom?: string } & MutationKinds[K];
}[MutationKind];

/** The Background Sync tag (the service worker may wake the app with it; never relied upon). */
export const BACKGROUND_SYNC_TAG = 'portal-outbox';

function registerBackgroundSync(): void {
  const container = globalThis.navigator?.serviceWorker;
  if (!container) return;
  void container.ready
    .then((registration) => {
      const sync = (registration as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }).sync;
      return sync?.register(BACKGROUND_SYNC_TAG);
    })
    .catch(() => undefined);
}

/** Request numbers of the writes enqueued in this tab (see waitForResult). */
const requestOf = new Map<string, number>();

/**
 * Queues a write and asks for a push. Resolves with the mutation id (its Idempotency-Key) once the
 * write is on the device. The draft named by `draftKey` (moved there from `draftFrom` first, if
 * given) gets status 'queued' (its pending edits are written first), and follows the server's
 * answer: removed once the server has the write, kept with the server's messages when refused.
 */
export async function enqueue(input: MutationInput): Promise<string> {
  const userId = requireUserId();
  const id = newUuid();
  const {
    kind,
    draftKey: requestedDraftKey,
    draftFrom,
    ...payload
  } = input as { kind: string; draftKey?: string; draftFrom?: string };
  const handler = handlerOf(kind);
  if (!handler) throw new Error(`offline: mutation kind not registered: ${kind}`);
  // What could never be sent is refused here, not stored.
  v.parse(handler.payload, payload);
  if (requestedDraftKey !== undefined) await flushDraft(userId, requestedDraftKey);
  if (draftFrom !== undefined) await flushDraft(userId, draftFrom);
  try {
    await db.transaction('rw', db.outbox, db.drafts, db.idMap, async () => {
      let draftUpdatedAt: number | undefined;
      // A local id mapped meanwhile: its draft (and so this write's) is named by the server id.
      const draftKey = requestedDraftKey === undefined ? undefined : await currentDraftKey(userId, requestedDraftKey);
      if (draftKey !== undefined && draftFrom !== undefined) await moveDraftRow(userId, draftFrom, draftKey);
      if (draftKey !== undefined) {
        const draft = await readDraftRow(userId, draftKey);
        if (draft) {
          draftUpdatedAt = draft.updatedAt;
          const { serverCodes: _codes, serverError: _error, serverDetails: _details, conflict: _conflict, ...rest } = draft;
          await db.drafts.put({ ...rest, status: 'queued' });
        }
      }
      await db.outbox.add({
        id,
        userId,
        kind,
        payload,
        createdAt: Date.now(),
        attempts: 0,
        ...(draftKey === undefined ? {} : { draftKey }),
        ...(draftUpdatedAt === undefined ? {} : { draftUpdatedAt }),
      });
    });
  } catch (error) {
    reportStorageError(error);
    throw error;
  }
  requestOf.set(id, requestSync());
  registerBackgroundSync();
  return id;
}

/** The one result of a write, from the outbox to the screen. */
export type MutationResult =
  | { status: 'done'; body: unknown }
  /** Kept on the device: offline, paused until sign-in, waiting for an earlier write, or slow. */
  | { status: 'queued' }
  /** `error`: the whole-request code; `fields`: field path → code (src/shared/rules/error-codes.ts). */
  | { status: 'rejected'; fields: Record<string, string>; error: string; details?: unknown }
  /** The server's current copy, for the field-by-field choice. */
  | { status: 'conflict'; current: { data: unknown; version: number } };

function toResult(row: ResultRow): MutationResult {
  switch (row.status) {
    case 'done':
      return { status: 'done', body: row.body };
    case 'rejected':
      return {
        status: 'rejected',
        fields: row.fields ?? {},
        error: row.error ?? 'unhandled',
        ...(row.details === undefined ? {} : { details: row.details }),
      };
    case 'conflict':
      return row.current ? { status: 'conflict', current: row.current } : { status: 'rejected', fields: {}, error: 'conflict' };
  }
}

const DEFAULT_WAIT_MS = 15_000;

async function settledResult(id: string): Promise<MutationResult | null> {
  const row = readRow('results', resultRowSchema, await db.results.get(id));
  if (row) return toResult(row);
  const stillQueued = (await db.outbox.where('id').equals(id).count()) > 0;
  return stillQueued ? { status: 'queued' } : null;
}

/**
 * What became of a queued write: the server's answer, or 'queued' as soon as it is clear that it
 * cannot be sent now (no connection, paused until sign-in, waiting on an earlier write), or after
 * `timeoutMs`. A 'queued' write is still sent later; its draft shows the outcome then.
 */
export function waitForResult(id: string, timeoutMs = DEFAULT_WAIT_MS): Promise<MutationResult> {
  return new Promise((resolve) => {
    let settled = false;
    const cleanups: (() => void)[] = [];
    const finish = (result: MutationResult) => {
      if (settled) return;
      settled = true;
      cleanups.forEach((cleanup) => cleanup());
      resolve(result);
    };
    const timer = setTimeout(() => finish({ status: 'queued' }), timeoutMs);
    cleanups.push(() => clearTimeout(timer));

    const subscription = liveQuery(() => db.results.get(id)).subscribe({
      next: (row) => {
        const parsed = readRow('results', resultRowSchema, row);
        if (parsed) finish(toResult(parsed));
      },
      error: () => finish({ status: 'queued' }),
    });
    cleanups.push(() => subscription.unsubscribe());

    const request = requestOf.get(id) ?? 0;
    const check = () => {
      const state = engineState();
      const offline = globalThis.navigator?.onLine === false;
      // The engine in this tab finished a push that had seen this write, or there is no network.
      if ((state.leading && !state.running && state.settled >= request) || offline) {
        void settledResult(id).then((result) => result && finish(result));
      }
    };
    cleanups.push(subscribeEngineState(check));
    check();
  });
}

/** The result of a versioned write (a record saved on a version): a done one also says which version it made. */
export type VersionedResult = MutationResult & { version?: number };

/**
 * waitForResult for a versioned write: once done, `version` is the version the server made of the
 * record (its kind's versionMade), which the screen's next save of it is based on.
 */
export async function waitForVersionedResult(id: string, timeoutMs = DEFAULT_WAIT_MS): Promise<VersionedResult> {
  const result = await waitForResult(id, timeoutMs);
  if (result.status !== 'done') return result;
  const made = readRow('results', resultRowSchema, await db.results.get(id))?.made;
  return made === undefined ? result : { ...result, version: made };
}

/** Writes of the user not yet sent, and drafts the server refused or that conflict. */
export async function countUnsent(userId: number): Promise<number> {
  const [queued, refused] = await Promise.all([
    db.outbox.where('userId').equals(userId).count(),
    countDraftsNeedingAttention(userId),
  ]);
  return queued + refused;
}

/** Removes queued writes that have not been sent (e.g. a file removed before it went). */
export async function removeQueued(predicate: (row: { id: string; kind: string; payload: unknown }) => boolean): Promise<void> {
  const userId = requireUserId();
  const rows = await db.outbox.where('userId').equals(userId).toArray();
  const seqs = rows.filter((row) => predicate(row)).map((row) => row.seq);
  if (seqs.length > 0) await db.outbox.bulkDelete(seqs);
}

/** The signed-in user's queued writes of one kind, in order, their payloads checked by the kind's schema. */
export async function readQueued<K extends MutationKind>(userId: number, kind: K): Promise<MutationKinds[K][]> {
  return (await readQueuedWrites(userId, kind)).map((write) => write.payload);
}

/** As readQueued, with until when the server asked each write to wait (a 429), if it did, and the draft it came from. */
export async function readQueuedWrites<K extends MutationKind>(
  userId: number,
  kind: K,
): Promise<{ payload: MutationKinds[K]; heldUntil: number | null; draftKey: string | null }[]> {
  const handler = handlerOf(kind);
  if (!handler) return [];
  // Only this kind's rows are checked (a screen reads this again each time the sync settles an answer).
  const stored = await db.outbox
    .where('userId')
    .equals(userId)
    .filter((row: { kind?: unknown }) => row.kind === kind)
    .sortBy('seq');
  const rows = readRows('outbox', outboxRowSchema, stored);
  return rows.flatMap((row) => {
    if (row.kind !== kind) return [];
    const payload = v.safeParse(handler.payload, row.payload);
    return payload.success
      ? [{ payload: payload.output as MutationKinds[K], heldUntil: row.heldUntil ?? null, draftKey: row.draftKey ?? null }]
      : [];
  });
}
