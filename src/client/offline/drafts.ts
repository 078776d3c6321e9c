import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useAtomValue, useStore } from 'jotai';
import { sessionUserAtom } from '../session/session';
import { db, draftRowId, draftRowSchema, readRow, readRows, reportStoredRow, type DraftRow, type DraftStatus } from './db';
import { parseDraftKey, renameDraftKeyPart } from './draft-keys';
import { readMapping } from './local-ids';
import { useSafeLiveQuery } from './live';
import { reportStorageError, requestPersistentStorage } from './persist';
import { bindSessionStore } from '../session/current-session';
import {
  hasRescuedEdits,
  keepUnwrittenEdits,
  rescueUnwrittenEdit,
  restoreRescuedEdits,
  takeBackKeptEdits,
  type RescuedEdit,
} from './draft-rescue';

/**
 * Drafts: every edit of a form is kept on the device as it is typed (right after the keystroke's
 * frame; edits made while a write runs go together in the next one), and on blur,
 * moving on, `pagehide` and when the page is hidden, so a reload, a crash or a closed tab loses
 * nothing. A draft belongs to the signed-in user: rows are keyed by user id and read only for them.
 */

export interface DraftRecord<V> {
  key: string;
  userId: number;
  value: V;
  /** The server version of the record this draft started from (0: never saved). */
  baseVersion: number;
  updatedAt: number;
  status: DraftStatus;
  /** After a refused save: field path → code (src/shared/rules/error-codes.ts). */
  serverCodes?: Record<string, string>;
  /** After a refused save: the whole-request error code ('validation', 'notEditable', …). */
  serverError?: string;
  /** After a refused save: what the refusal is about (the contract's ErrorDetails), to be read with its schema. */
  serverDetails?: unknown;
  /** After a 409: the server's copy, for the field-by-field choice. */
  conflict?: { data: unknown; version: number };
}

/** The longest an edit waits for the next frame before it is written anyway (a hidden tab has none). */
const DRAFT_FRAME_TIMEOUT_MS = 100;

/**
 * Runs `task` once, right after the next frame is drawn (the keystroke's render is on screen
 * first), or DRAFT_FRAME_TIMEOUT_MS later where no frame comes. Answers the cancel.
 */
function afterNextFrame(task: () => void): () => void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    cancel();
    task();
  };
  const timers: ReturnType<typeof setTimeout>[] = [setTimeout(run, DRAFT_FRAME_TIMEOUT_MS)];
  const frame =
    typeof globalThis.requestAnimationFrame === 'function'
      ? globalThis.requestAnimationFrame(() => timers.push(setTimeout(run, 0)))
      : null;
  function cancel() {
    done = true;
    timers.forEach((timer) => clearTimeout(timer));
    if (frame !== null) globalThis.cancelAnimationFrame(frame);
  }
  return cancel;
}

/** Saves not yet written, by row id: pagehide / hidden / enqueue write them at once. */
const pendingFlushers = new Map<string, () => Promise<void>>();

function flushAllDrafts(): Promise<void> {
  return Promise.all([...pendingFlushers.values()].map((flush) => flush())).then(() => undefined);
}

/** Writes any pending edit of this draft now (enqueue calls it so the queued save sees it). */
export function flushDraft(userId: number, key: string): Promise<void> {
  return pendingFlushers.get(draftRowId(userId, key))?.() ?? Promise.resolve();
}

/** The page is going away, or may be discarded while hidden: its edits are kept at once, then written. */
function keepAndFlushDrafts(): void {
  keepUnwrittenEdits();
  void flushAllDrafts();
}

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', keepAndFlushDrafts);
  window.addEventListener('pageshow', takeBackKeptEdits);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') keepAndFlushDrafts();
    else takeBackKeptEdits();
  });
}

/**
 * An edit a page kept as it went away (draft-rescue.ts), folded into its draft. A draft written
 * before the page went away is merged field by field, the edit's changes winning, as its own write
 * would have done. A draft written after (the page's last write landed, or another tab typed) wins
 * where it changed since the edit's base; the edit fills in the rest. An edit the draft already
 * holds writes nothing, so a save queued since stays queued.
 */
async function restoreRescuedEdit(edit: RescuedEdit): Promise<void> {
  const key = await currentDraftKey(edit.userId, edit.key);
  const stored = await readDraftRow(edit.userId, key);
  const value = !stored
    ? edit.value
    : edit.base === undefined
      ? stored.updatedAt >= edit.at
        ? stored.value
        : edit.value
      : stored.updatedAt >= edit.at
        ? mergeDraftValues(edit.base, stored.value, edit.value)
        : mergeDraftValues(edit.base, edit.value, stored.value);
  if (stored && sameDraftValue(value, stored.value)) return;
  await writeDraft(edit.userId, key, value, edit.baseVersion === undefined ? {} : { baseVersion: edit.baseVersion });
}

/** Folds the edits that pages kept as they went away into their drafts (once as a page starts). */
export function restoreRescuedDrafts(): Promise<void> {
  return restoreRescuedEdits(restoreRescuedEdit).catch((error: unknown) => reportStorageError(error));
}

/** Kept edits of a page that went away, folded in once before this page reads any draft (true: done). */
let rescuedEditsRestored: Promise<void> | true = true;
if (typeof window !== 'undefined' && hasRescuedEdits())
  rescuedEditsRestored = restoreRescuedDrafts().then(() => void (rescuedEditsRestored = true));

/** A key part that may be a local id (local ids end with a uuid; server ids and names have no '-'). */
function mayBeLocalId(part: string): boolean {
  return part.includes('-') && !/^\d+$/.test(part);
}

/**
 * The key a draft lives under now: once a local id is mapped, the drafts naming it moved to the
 * server id (local-ids.ts mapLocalId), so an edit still addressed to the local id (a screen open
 * during the switch, a flush on pagehide) goes there too instead of to a row no screen reads any more.
 */
export async function currentDraftKey(userId: number, key: string): Promise<string> {
  let current = key;
  for (const part of parseDraftKey(key).parts) {
    if (!mayBeLocalId(part)) continue;
    const mapped = await readMapping(userId, part);
    if (mapped) current = renameDraftKeyPart(current, part, mapped.serverId);
  }
  return current;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value as text with object keys in order, so two equal values compare equal however built. */
function canonical(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, item: unknown) =>
    isPlainObject(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : item,
  );
}

export function sameDraftValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/**
 * Three-way merge of a draft's values, field by field (decision 341): `mine` is this tab's values,
 * `base` what they were built on (the draft as this tab last read or wrote it), `theirs` the draft
 * as stored now (another tab's typing). A field this tab changed keeps its value; every other field
 * takes theirs. Objects merge key by key; a list (addresses, assets) is one field.
 */
export function mergeDraftValues(base: unknown, mine: unknown, theirs: unknown): unknown {
  if (isPlainObject(mine) && isPlainObject(theirs)) {
    const before = isPlainObject(base) ? base : {};
    const merged: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(theirs), ...Object.keys(mine)])) {
      const value = mergeDraftValues(before[key], mine[key], theirs[key]);
      if (value !== undefined) merged[key] = value;
    }
    return merged;
  }
  return sameDraftValue(mine, base) ? theirs : mine;
}

/**
 * Writes one edit: status and server messages follow the rules in the comments below. With
 * `base` (what the edit was built on), the edit is merged field by field into the draft as stored
 * (another tab's typing stays); without it, the value replaces the stored one. Returns the value written.
 */
export async function writeDraft(
  userId: number,
  requestedKey: string,
  value: unknown,
  meta: { baseVersion?: number; base?: unknown } = {},
): Promise<unknown> {
  return db
    .transaction('rw', db.drafts, db.idMap, async () => {
      const key = await currentDraftKey(userId, requestedKey);
      const id = draftRowId(userId, key);
      const previous = readRow('drafts', draftRowSchema, await db.drafts.get(id));
      const updatedAt = Math.max(Date.now(), (previous?.updatedAt ?? 0) + 1);
      const merged =
        previous && 'base' in meta && !sameDraftValue(previous.value, meta.base)
          ? mergeDraftValues(meta.base, value, previous.value)
          : value;
      const row: DraftRow = {
        ...(previous ?? {}),
        id,
        userId,
        key,
        value: merged,
        baseVersion: meta.baseVersion ?? previous?.baseVersion ?? 0,
        updatedAt,
        status: previous?.status ?? 'editing',
      };
      // Typing after a save was queued: the queued save carries the older value; this is an edit again.
      if (row.status === 'queued') row.status = 'editing';
      // A conflict is settled by saving on top of the server's version (the user's field choices).
      if (
        row.status === 'conflict' &&
        row.conflict &&
        meta.baseVersion !== undefined &&
        meta.baseVersion >= row.conflict.version
      ) {
        row.status = 'editing';
        delete row.conflict;
      }
      // A refused draft keeps the server's messages on its fields until it is sent again.
      await db.drafts.put(row);
      return merged;
    })
    .finally(() => void requestPersistentStorage());
}

/** The stored draft row of the user (parsed), if any. */
export async function readDraftRow(userId: number, key: string): Promise<DraftRow | undefined> {
  return readRow('drafts', draftRowSchema, await db.drafts.get(draftRowId(userId, key)));
}

/**
 * Moves a draft to another key, as it is (value, version, status, the server's messages), replacing
 * any draft there; inside the caller's transaction when there is one. A draft of a screen whose
 * record does not exist yet (a new record's form) becomes the draft of the write that creates it
 * (enqueue's `draftFrom`), and comes back to the screen when that write is refused there and then.
 */
export async function moveDraft(userId: number, from: string, to: string): Promise<void> {
  await flushDraft(userId, from);
  await db.transaction('rw', db.drafts, () => moveDraftRow(userId, from, to));
}

/** moveDraft's write, for a caller that has flushed the draft and holds a transaction over drafts. */
export async function moveDraftRow(userId: number, from: string, to: string): Promise<void> {
  if (from === to) return;
  const row = readRow('drafts', draftRowSchema, await db.drafts.get(draftRowId(userId, from)));
  if (!row) return;
  await db.drafts.put({ ...row, id: draftRowId(userId, to), key: to });
  await db.drafts.delete(row.id);
}

export async function deleteDraft(userId: number, key: string): Promise<void> {
  await db.drafts.delete(draftRowId(userId, key));
}

/** The user's drafts (parsed), for a feature that lists what waits on the device. */
export async function readDrafts(userId: number, status?: DraftRow['status']): Promise<DraftRow[]> {
  // One status is read from its index: a screen's live query of refused drafts does not read (and
  // check) every draft of the user each time the sync settles an answer (decision 641).
  const rows =
    status === undefined
      ? await db.drafts.where('userId').equals(userId).toArray()
      : await db.drafts.where('[userId+status]').equals([userId, status]).toArray();
  return readRows('drafts', draftRowSchema, rows);
}

/**
 * Drafts of the user that were refused or conflict with the server's copy (read from the index).
 * Two counts of the index, not one count of `anyOf` (which walks a cursor): the shell's status
 * reads this after every draft write (decision 386).
 */
export async function countDraftsNeedingAttention(userId: number): Promise<number> {
  const [rejected, conflict] = await Promise.all([
    db.drafts.where('[userId+status]').equals([userId, 'rejected']).count(),
    db.drafts.where('[userId+status]').equals([userId, 'conflict']).count(),
  ]);
  return rejected + conflict;
}

export interface UseDraft<V> {
  /** False until the stored draft (or its absence) is known: render the form only then. */
  loaded: boolean;
  draft: DraftRecord<V> | undefined;
  /**
   * Keeps the value: written right after the keystroke's frame, or with the next write when
   * one is under way (the latest value wins); baseVersion when the form was (re)based on the server's copy.
   */
  save(value: V, meta?: { baseVersion?: number }): void;
  /** Writes a pending edit now (on blur, on moving on, before a save). */
  flush(): Promise<void>;
  /** Removes the draft (and any pending edit). */
  clear(): Promise<void>;
  /**
   * The form now shows these values (the stored draft, or the server's copy when there is none):
   * from here on edits are merged field by field into the stored draft, so typing in another tab
   * is never replaced whole (decision 341).
   */
  rebase(value: V): void;
}

export interface UseDraftOptions<V> {
  /**
   * Another tab changed the stored draft of this key: `theirs` is the draft now, `base` what this
   * tab's values were built on. The form merges the fields it has not changed itself
   * (mergeDraftValues); an edit still pending here is merged by the engine.
   */
  onExternalChange?: (theirs: V, base: V) => void;
}

interface Pending {
  userId: number;
  key: string;
  value: unknown;
  meta: { baseVersion?: number };
}

/** What this tab's values of a draft are built on (see rebase); absent before the form is loaded. */
type Known = { value: unknown } | null;

/**
 * The draft of `key` for the signed-in user. `parse` turns a stored value (written by any earlier
 * version) into the form's values, or null when it cannot be used: the row is then reported and
 * kept, and the form starts from the server's copy.
 */
export function useDraft<V>(
  key: string | null,
  parse: (stored: unknown) => V | null,
  options: UseDraftOptions<V> = {},
): UseDraft<V> {
  const store = useStore();
  useEffect(() => bindSessionStore(store), [store]);
  const user = useAtomValue(sessionUserAtom);
  const userId = user?.id ?? null;
  const rowId = key !== null && userId !== null ? draftRowId(userId, key) : null;

  const parseRef = useRef(parse);
  parseRef.current = parse;

  // A page that went away may have kept edits of this draft: they are folded in before it is read.
  const [rescuedIn, setRescuedIn] = useState(rescuedEditsRestored === true);
  useEffect(() => {
    // Done between the first render and now: the state follows at once.
    if (rescuedEditsRestored === true) setRescuedIn(true);
    else void rescuedEditsRestored.then(() => setRescuedIn(true));
  }, []);
  const result = useSafeLiveQuery(
    async () => ({
      rowId,
      rescuedIn,
      row: rowId === null || !rescuedIn ? undefined : ((await db.drafts.get(rowId)) as unknown),
    }),
    [rowId, rescuedIn],
    { rowId, rescuedIn, row: undefined as unknown },
  );
  const current = result && result.rowId === rowId && result.rescuedIn ? result : undefined;
  const loaded = rowId === null || current !== undefined;

  const draft = useMemo<DraftRecord<V> | undefined>(() => {
    const row = readRow('drafts', draftRowSchema, current?.row);
    if (!row) return undefined;
    const value = parseRef.current(row.value);
    if (value === null) {
      reportStoredRow('drafts', row.id, 'the form could not use the stored value');
      return undefined;
    }
    const { id: _id, value: _value, ...rest } = row;
    return { ...rest, value };
  }, [current]);

  const pending = useRef<Pending | null>(null);
  /** The edit being written now (taken from pending), until its write is done. */
  const inFlight = useRef<Pending | null>(null);
  /** Cancels the scheduled write of what is pending. */
  const scheduled = useRef<(() => void) | null>(null);
  /** The write loop under way, if any. */
  const writing = useRef<Promise<void> | null>(null);
  const known = useRef<Known>(null);
  const knownRow = useRef<string | null>(null);
  const onExternalRef = useRef(options.onExternalChange);
  onExternalRef.current = options.onExternalChange;

  // Another tab wrote this draft: the form merges what it has not changed, and so does a pending edit.
  useEffect(() => {
    if (!current || current.rowId === null || knownRow.current !== current.rowId) return;
    const base = known.current;
    const row = readRow('drafts', draftRowSchema, current.row);
    if (!base || !row || sameDraftValue(row.value, base.value)) return;
    known.current = { value: row.value };
    if (pending.current) pending.current.value = mergeDraftValues(base.value, pending.current.value, row.value);
    const theirs = parseRef.current(row.value);
    const before = parseRef.current(base.value);
    if (theirs !== null && before !== null) onExternalRef.current?.(theirs, before);
  }, [current]);

  const rebase = useCallback(
    (value: V) => {
      known.current = { value };
      knownRow.current = rowId;
    },
    [rowId],
  );

  /**
   * The one write loop of this draft (decision 381): it takes what is pending, writes it in one
   * transaction, and goes on while typing left more; keystrokes made while a write runs only
   * replace the pending value, so they are written together next (the latest wins) and never wait.
   */
  const writeLoop = useCallback(async (): Promise<void> => {
    for (let next = pending.current; next !== null; next = pending.current) {
      pending.current = null;
      inFlight.current = next;
      if (pendingFlushers.get(draftRowId(next.userId, next.key)) === flushRef.current)
        pendingFlushers.delete(draftRowId(next.userId, next.key));
      try {
        // Read by scripts/bench-offline.mjs (a PerformanceObserver): how long the write took and
        // when the draft was safe. Costs nothing; cleared at once so entries never pile up.
        const start = performance.now();
        const base = known.current;
        const written = await writeDraft(
          next.userId,
          next.key,
          next.value,
          base ? { ...next.meta, base: base.value } : next.meta,
        );
        performance.measure?.('portal:draft-write', { start });
        performance.clearMeasures?.('portal:draft-write');
        if (base && known.current === base) {
          known.current = { value: written };
          // Merged with another tab's typing stored meanwhile: the form shows those fields too.
          if (!sameDraftValue(written, next.value)) {
            const theirs = parseRef.current(written);
            const before = parseRef.current(base.value);
            if (theirs !== null && before !== null) onExternalRef.current?.(theirs, before);
          }
        }
      } catch (error) {
        reportStorageError(error);
      } finally {
        if (inFlight.current === next) inFlight.current = null;
      }
    }
  }, []);

  // What is typed but not yet written is kept at once if the page goes away (draft-rescue.ts).
  useEffect(
    () =>
      rescueUnwrittenEdit(() => {
        const edit = pending.current ?? inFlight.current;
        if (!edit) return null;
        const base = known.current;
        return {
          userId: edit.userId,
          key: edit.key,
          value: edit.value,
          ...edit.meta,
          ...(base ? { base: base.value } : {}),
        };
      }),
    [],
  );

  const flush = useCallback((): Promise<void> => {
    // Cancelling a scheduled write that has run (this call may be it) is harmless.
    scheduled.current?.();
    scheduled.current = null;
    if (!writing.current) {
      if (pending.current === null) return Promise.resolve();
      const loop = writeLoop().finally(() => {
        if (writing.current === loop) writing.current = null;
        // An edit that came as the loop ended: written after the next frame, like any other.
        if (pending.current !== null && !scheduled.current) scheduled.current = afterNextFrame(() => void flushRef.current());
      });
      writing.current = loop;
      return loop;
    }
    // A write is under way: the loop takes what is pending when it ends; answer once that is written.
    return writing.current.then(() => (pending.current === null ? undefined : flushRef.current()));
  }, [writeLoop]);
  const flushRef = useRef(flush);
  flushRef.current = flush;

  const save = useCallback(
    (value: V, meta: { baseVersion?: number } = {}) => {
      if (key === null || userId === null) return;
      const previous = pending.current;
      // Pending edit of another key (the key changed): write it first.
      if (previous && (previous.key !== key || previous.userId !== userId)) void flush();
      const baseVersion = meta.baseVersion ?? pending.current?.meta.baseVersion;
      pending.current = { userId, key, value, meta: baseVersion === undefined ? {} : { baseVersion } };
      pendingFlushers.set(draftRowId(userId, key), flush);
      // Written right after this keystroke's frame (or by the loop under way).
      if (!scheduled.current && !writing.current) scheduled.current = afterNextFrame(() => void flush());
    },
    [key, userId, flush],
  );

  const clear = useCallback(async () => {
    scheduled.current?.();
    scheduled.current = null;
    if (pending.current) pendingFlushers.delete(draftRowId(pending.current.userId, pending.current.key));
    pending.current = null;
    // Let go: the write under way is no edit to keep if the page goes away meanwhile.
    inFlight.current = null;
    await writing.current;
    if (key !== null && userId !== null) await deleteDraft(userId, key).catch((error: unknown) => reportStorageError(error));
  }, [key, userId]);

  // Leaving the screen or changing the key writes what is pending.
  useEffect(() => () => void flush(), [flush, rowId]);

  return { loaded, draft, save, flush, clear, rebase };
}

/**
 * The status of the user's draft of `key` (null when there is none; undefined while it is read):
 * for a screen that must not move away from a refusal the device keeps until it is read.
 */
export function useDraftStatus(key: string): DraftStatus | null | undefined {
  const userId = useAtomValue(sessionUserAtom)?.id ?? null;
  return useSafeLiveQuery(
    async () => {
      if (userId === null) return null;
      return readRow('drafts', draftRowSchema, await db.drafts.get(draftRowId(userId, key)))?.status ?? null;
    },
    [userId, key],
    null,
  );
}
