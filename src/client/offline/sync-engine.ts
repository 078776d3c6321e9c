import Dexie, { liveQuery } from 'dexie';
import { useAtomValue } from 'jotai';
import { useSyncExternalStore } from 'react';
import { subscribeReconnected, useOnline } from '../api/connection';
import * as v from 'valibot';
import { sessionAtom, sessionUserAtom, type AppStore } from '../session/session';
import {
  changeRowId,
  changeRowSchema,
  db,
  draftRowId,
  draftRowSchema,
  hasIndexedDb,
  metaRowSchema,
  newUuid,
  outboxRowSchema,
  readRow,
  readRows,
  reportStoredRow,
  resultRowSchema,
  type DraftRow,
  type OutboxRow,
} from './db';
import { engineState, setSyncRequestHandler, subscribeEngineState, updateEngineState, type SyncPhase } from './engine-state';
import { useSafeLiveQuery } from './live';
import { clearReadsOnSignOut } from './cache';
import { countDraftsNeedingAttention, currentDraftKey } from './drafts';
import { LocalIdNotYetKnown, resolveId, serverRef } from './local-ids';
import { handlerOf, type HoldContext, type MutationHandler, type SendContext, type SettledContext } from './mutation-registry';
import type { SendOutcome } from './send-outcome';
import { reportStorageError } from './persist';
import { bindSessionStore, currentToken, currentUserId } from '../session/current-session';

/**
 * The sync engine: pushes the signed-in user's outbox to the server, in order, on start, on
 * `online`, when the page becomes visible, when something is queued, and on a timer with jittered
 * exponential backoff while writes wait. One tab leads (Web Locks; without them every tab runs,
 * which the idempotency keys make safe); the others follow through Dexie's live queries.
 */

const LOCK_NAME = 'portal-sync';
export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_MAX_MS = 5 * 60_000;
/** Results are kept this long for waitForResult and the wizard (then removed at start). */
const RESULT_TTL_MS = 24 * 60 * 60_000;

/** Delay before retry number `attempt` (0-based): exponential, capped, with half of it random. */
export function backoffDelay(attempt: number, random = Math.random()): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}

interface Engine {
  store: AppStore;
  running: boolean;
  rerun: boolean;
  /** The token a 401 came with: nothing is sent until the session has another one. */
  pausedToken: string | null;
  failures: number;
  timer: ReturnType<typeof setTimeout> | null;
  cleanups: (() => void)[];
  /** The highest outbox seq a pass has read: a write queued since has a higher one. */
  seenSeq: number;
  /** The highest seq of the user's last queued write, as the outbox watch last saw it. */
  watchedSeq: number;
}

let engine: Engine | null = null;
let starts = 0;
let stopCurrent: (() => void) | null = null;
let idlePass: Promise<void> = Promise.resolve();

async function setPhase(phase: SyncPhase): Promise<void> {
  if (engineState().phase !== phase) updateEngineState({ phase });
  const userId = currentUserId();
  if (userId === null) return;
  const id = `sync|${userId}`;
  const previous = readRow('meta', metaRowSchema, await db.meta.get(id).catch(() => undefined));
  if (previous?.phase !== phase) await db.meta.put({ id, phase, at: Date.now() }).catch(() => undefined);
}

function scheduleRetry(current: Engine, delayMs?: number): void {
  if (current.timer) clearTimeout(current.timer);
  const delay = delayMs ?? backoffDelay(current.failures);
  current.failures += 1;
  current.timer = setTimeout(() => {
    current.timer = null;
    push();
  }, delay);
}

/** A refused or conflicting write's draft row (made from what the write carried if it is gone). */
async function draftForOutcome(
  row: OutboxRow,
  handler: MutationHandler<unknown> | undefined,
  payload: unknown,
  draftKey: string,
  at: number,
): Promise<DraftRow> {
  const id = draftRowId(row.userId, draftKey);
  const stored = readRow('drafts', draftRowSchema, await db.drafts.get(id));
  if (stored) return stored;
  const carried = handler?.draftValue?.(payload);
  return {
    id,
    userId: row.userId,
    key: draftKey,
    value: carried?.value,
    baseVersion: carried?.baseVersion ?? 0,
    updatedAt: at,
    status: 'editing',
  };
}

function settledContext(userId: number, at: number): SettledContext {
  return {
    userId,
    at,
    enqueue: async (kind, payload) => {
      await db.outbox.add({ id: newUuid(), userId, kind, payload, createdAt: at, attempts: 0 });
    },
  };
}

type Settled = Extract<SendOutcome, { type: 'done' | 'rejected' | 'conflict' }>;

/** The one place an answer is written: the outbox row goes, the result is kept, and the draft follows. */
async function applyOutcome(
  row: OutboxRow,
  handler: MutationHandler<unknown> | undefined,
  payload: unknown,
  outcome: Settled,
  sent: SentVersion | null,
): Promise<void> {
  const { userId } = row;
  await settleTogether(async () => {
    await db.outbox.delete(row.seq);
    const at = Date.now();
    const context = settledContext(userId, at);
    // Every answer says something about the server's data: taken, the data changed; refused or in
    // conflict, it had moved on without this device (the credit used, the status changed). Every
    // tab's lists and records read it again (decisions 340 and 403).
    const changes = readRow('meta', changeRowSchema, await db.meta.get(changeRowId(userId)));
    await db.meta.put({ id: changeRowId(userId), count: (changes?.count ?? 0) + 1, at });

    if (outcome.type === 'done') {
      const made = handler?.versionMade?.(outcome.body);
      const version = made !== undefined && sent ? { key: sent.key, from: sent.from, to: made } : undefined;
      await db.results.put({
        id: row.id,
        userId,
        status: 'done',
        body: outcome.body,
        ...(version ? { version } : {}),
        ...(made === undefined ? {} : { made }),
        at,
      });
      await handler?.onDone?.(payload, outcome.body, context);
      // A local id the write mapped (onDone) renames its draft too.
      const draftKey = row.draftKey === undefined ? undefined : await currentDraftKey(userId, row.draftKey);
      if (draftKey !== undefined) {
        const draft = readRow('drafts', draftRowSchema, await db.drafts.get(draftRowId(userId, draftKey)));
        if (draft && draft.updatedAt === row.draftUpdatedAt && draft.status === 'queued') {
          await db.drafts.delete(draft.id);
        } else if (draft) {
          // Edited after the write was queued: the edit stays, now based on the saved version.
          const { serverCodes: _codes, serverError: _error, serverDetails: _details, ...rest } = draft;
          await db.drafts.put({
            ...rest,
            status: draft.status === 'queued' ? 'editing' : draft.status,
            baseVersion: made ?? draft.baseVersion,
          });
        }
      }
      return;
    }

    if (outcome.type === 'rejected') {
      const fields = outcome.fields ?? {};
      const details = outcome.details === undefined ? {} : { details: outcome.details };
      await db.results.put({ id: row.id, userId, status: 'rejected', error: outcome.error, fields, ...details, at });
      await handler?.onRejected?.(payload, { error: outcome.error, fields }, context);
    } else {
      await db.results.put({ id: row.id, userId, status: 'conflict', current: outcome.current, at });
    }
    if (row.draftKey === undefined) return;
    const draftKey = await currentDraftKey(userId, row.draftKey);
    const draft = await draftForOutcome(row, handler, payload, draftKey, at);
    if (outcome.type === 'rejected') {
      const { conflict: _conflict, serverDetails: _details, ...rest } = draft;
      await db.drafts.put({
        ...rest,
        status: 'rejected',
        serverCodes: outcome.fields ?? {},
        serverError: outcome.error,
        ...(outcome.details === undefined ? {} : { serverDetails: outcome.details }),
      });
    } else {
      const { serverCodes: _codes, serverError: _error, serverDetails: _details, ...rest } = draft;
      await db.drafts.put({ ...rest, status: 'conflict', conflict: outcome.current });
    }
  });
}

interface Settling {
  work: () => Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Answers waiting for the transaction that writes them, and that transaction, if one is under way. */
let settling: Settling[] = [];
let committing: Promise<void> | null = null;
/** Sends whose answer has not come yet: an answer waits a little for theirs (decision 385). */
let sendsUnderWay = 0;
let gathering: ReturnType<typeof setTimeout> | null = null;
/** The longest an answer waits for the answers of the other sends under way before it is written. */
export const SETTLE_GATHER_MS = 25;

function settleTransaction(works: (() => Promise<void>)[]): Promise<void> {
  return db.transaction('rw', [db.outbox, db.drafts, db.results, db.idMap, db.uploads, db.meta], async () => {
    for (const work of works) await work();
  });
}

/**
 * Writes one answer's changes (applyOutcome's) in a transaction (decisions 382, 385). An answer
 * that comes while other sends are under way waits for their answers, at most SETTLE_GATHER_MS,
 * and answers that come while a transaction is under way are written together in the next one,
 * each as a whole and in the order they came: the outbox, the results and every screen's live
 * queries change once per group of answers instead of once per write. A lone answer (a screen's
 * one save) is written at once. If a transaction of several fails, each is written alone, so only
 * the one that cannot be written fails.
 */
function settleTogether(work: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    settling.push({ work, resolve, reject });
    settleWhenGathered();
  });
}

function settleWhenGathered(): void {
  if (committing || settling.length === 0) return;
  if (sendsUnderWay > 0) {
    gathering ??= setTimeout(commitSettling, SETTLE_GATHER_MS);
    return;
  }
  commitSettling();
}

function commitSettling(): void {
  if (gathering) clearTimeout(gathering);
  gathering = null;
  if (committing || settling.length === 0) return;
  committing = (async () => {
    while (settling.length > 0) {
      const batch = settling;
      settling = [];
      try {
        await settleTransaction(batch.map((item) => item.work));
        batch.forEach((item) => item.resolve());
      } catch (error) {
        if (batch.length === 1) batch[0]!.reject(error);
        else for (const item of batch) await settleTransaction([item.work]).then(item.resolve, item.reject);
      }
    }
    committing = null;
  })();
}

/**
 * The records (a versioned write's key) the user's kept results made a version of, read once per
 * pass and by key only (not each result, not once per write); the pass adds those its own answers
 * make. A write of any other record is sent on its own base without reading the results.
 */
class KnownVersions {
  private keys: Set<string> | null = null;
  private loading: Promise<Set<string>> | null = null;

  constructor(private readonly userId: number) {}

  private load(): Promise<Set<string>> {
    this.loading ??= db.results
      .where('[userId+version.key]')
      .between([this.userId, Dexie.minKey], [this.userId, Dexie.maxKey])
      .keys()
      .then((keys) => {
        const loaded = new Set(keys.map((key) => String((key as unknown as [number, string])[1])));
        this.keys?.forEach((added) => loaded.add(added));
        this.keys = loaded;
        return loaded;
      });
    return this.loading;
  }

  async has(key: string): Promise<boolean> {
    return (this.keys !== null && this.keys.has(key)) || (await this.load()).has(key);
  }

  /** A version this pass made: its record's next write reads the results. */
  add(key: string): void {
    (this.keys ??= new Set()).add(key);
  }
}

/** The version a versioned write was sent on (what its result records as `from`). */
interface SentVersion {
  key: string;
  from: number;
}

/**
 * A versioned write of this user based on a version their own earlier write has replaced (the same
 * record saved twice offline, or reopened while a save was still queued) would come back as a
 * conflict with their own work. It is sent on the version that write made; a write by anyone else
 * in between still answers 409.
 */
async function ownVersion(userId: number, key: string, base: number, known: KnownVersions): Promise<number> {
  // No result of the user made a version of this record: nothing to read (decision 385).
  if (!(await known.has(key))) return base;
  const made = new Map<number, number>();
  const results = readRows(
    'results',
    resultRowSchema,
    await db.results.where('[userId+version.key]').equals([userId, key]).toArray(),
  );
  for (const result of results)
    if (result.version && result.version.key === key) made.set(result.version.from, result.version.to);
  let version = base;
  while (made.has(version) && made.get(version)! > version) version = made.get(version)!;
  return version;
}

function holdContext(row: OutboxRow): HoldContext {
  return {
    userId: row.userId,
    queuedAfter: async (match) =>
      (await db.outbox
        .where('seq')
        .above(row.seq)
        .filter((other) => other.userId === row.userId && match(other.kind, other.payload))
        .first()) !== undefined,
    draftsNeedingAttention: async () => {
      const rows = await db.drafts
        .where('[userId+status]')
        .anyOf([
          [row.userId, 'rejected'],
          [row.userId, 'conflict'],
        ])
        .toArray();
      return readRows('drafts', draftRowSchema, rows).map((draft) => draft.key);
    },
  };
}

/** A scope as the server knows it: a local id already mapped orders with its server id's writes. */
async function scopeKey(userId: number, scope: string | null): Promise<string | null> {
  if (scope === null) return null;
  return (await serverRef(userId, scope)) ?? scope;
}

type PassEnd = 'drained' | 'offline' | 'paused';

/** What one write came to in a pass. */
type WriteEnd = 'settled' | 'blocked' | 'skipped' | { stop: 'offline' | 'paused' };

async function sendOne(
  current: Engine,
  row: OutboxRow,
  handler: MutationHandler<unknown>,
  known: KnownVersions,
): Promise<WriteEnd> {
  const parsed = v.safeParse(handler.payload, row.payload);
  if (!parsed.success) {
    reportStoredRow('outbox', row.seq, v.summarize(parsed.issues));
    // Cannot be built into a request: answered as refused (its draft keeps what it carried).
    await applyOutcome(row, handler, row.payload, { type: 'rejected', error: 'unhandled' }, null);
    return 'settled';
  }
  const payload = parsed.output;
  let sent: SentVersion | null = null;
  const context: SendContext = {
    idempotencyKey: row.id,
    userId: row.userId,
    resolveId: (id) => resolveId(row.userId, id),
    ownVersion: async (key, base) => {
      const version = await ownVersion(row.userId, key, base, known);
      sent = { key, from: version };
      return version;
    },
  };
  let outcome: SendOutcome;
  sendsUnderWay += 1;
  try {
    outcome = await handler.send(payload, context);
  } catch (error) {
    outcome =
      error instanceof LocalIdNotYetKnown
        ? { type: 'blocked' }
        : error instanceof v.ValiError
          ? { type: 'rejected', error: 'unhandled' }
          : { type: 'retry' };
  } finally {
    sendsUnderWay -= 1;
  }
  // Answers gathered for the transaction may have waited for this one alone.
  if (outcome.type !== 'done' && outcome.type !== 'rejected' && outcome.type !== 'conflict') settleWhenGathered();
  switch (outcome.type) {
    case 'blocked':
      return 'blocked';
    case 'unauthorized':
      current.pausedToken = currentToken();
      return { stop: 'paused' };
    case 'retry':
      if (outcome.retryAfterMs !== undefined) {
        // Over a limit (429): kept, sent again after the wait; its form says why it waits (decision 554).
        await db.outbox.update(row.seq, { heldUntil: Date.now() + outcome.retryAfterMs });
        scheduleRetry(current, outcome.retryAfterMs);
      }
      return { stop: 'offline' };
    default:
      current.failures = 0;
      await applyOutcome(row, handler, payload, outcome, sent);
      if (outcome.type === 'done' && sent !== null) known.add((sent as SentVersion).key);
      return 'settled';
  }
}

/** Writes in different scopes sent side by side, at most this many at once (decision 380). */
export const PARALLEL_SCOPES = 4;

/**
 * One pass over the user's outbox (decision 380). The queue is read in one transaction (and again
 * for what was queued while it ran), each write is put at the end of its scope's lane, and the
 * lanes run side by side, at most PARALLEL_SCOPES sends at once: a write never waits for another
 * scope's, only for the one before it in its own scope. A write with no scope has a lane of its own.
 */
async function runPass(current: Engine): Promise<PassEnd> {
  const userId = currentUserId();
  if (userId === null) return 'paused';
  if (current.pausedToken !== null && current.pausedToken === currentToken()) return 'paused';
  current.pausedToken = null;
  const blockedScopes = new Set<string>();
  const known = new KnownVersions(userId);
  /** The end of each scope's lane: the next write of that scope starts after it. */
  const lanes = new Map<string, Promise<void>>();
  const running = new Set<Promise<void>>();
  let sending = 0;
  const slotFreed: (() => void)[] = [];
  let stop: PassEnd | null = null;
  let blocked = false;
  let settled = false;

  const stopped = () => {
    // Stopped (the layout went away), or another user signed in meanwhile: stop here.
    if (engine !== current || currentUserId() !== userId) stop ??= 'paused';
    return stop !== null;
  };

  /** One write, its turn in its lane come: held, skipped, or sent once a sending slot is free. */
  const turn = async (row: OutboxRow, handler: MutationHandler<unknown>, payload: unknown, scope: string | null) => {
    if (stopped()) return;
    if (scope !== null && blockedScopes.has(scope)) return;
    // Held, not blocked: the writes after it (what it waits for) go on.
    if (payload !== undefined && handler.holdWhile && (await handler.holdWhile(payload, holdContext(row)))) return;
    while (sending >= PARALLEL_SCOPES) await new Promise<void>((resolve) => slotFreed.push(resolve));
    if (stopped()) return;
    sending += 1;
    let end: WriteEnd;
    try {
      end = await sendOne(current, row, handler, known);
    } finally {
      sending -= 1;
      slotFreed.shift()?.();
    }
    if (typeof end === 'object') stop ??= end.stop;
    else if (end === 'blocked') {
      blocked = true;
      if (scope !== null) blockedScopes.add(scope);
    } else if (end === 'settled') settled = true;
  };

  let lastSeq = 0;
  while (!stopped()) {
    // Every write queued after the last one taken, in one read (not one read per write).
    const rows = await db.outbox
      .where('seq')
      .above(lastSeq)
      .filter((row) => row.userId === userId)
      .toArray();
    if (rows.length === 0) {
      if (running.size === 0) break;
      // Once the lanes are done, what they queued meanwhile (a follow-up write) is read too.
      while (running.size > 0) await Promise.all(running);
      continue;
    }
    lastSeq = rows[rows.length - 1]!.seq;
    current.seenSeq = Math.max(current.seenSeq, lastSeq);
    if (engineState().phase !== 'syncing') await setPhase('syncing');
    for (const next of rows) {
      const row = readRow('outbox', outboxRowSchema, next);
      // Unreadable (reported, kept), or of a kind no feature has registered (yet): it waits.
      const handler = row ? handlerOf(row.kind) : undefined;
      if (!row || !handler) continue;
      const parsed = v.safeParse(handler.payload, row.payload);
      const payload = parsed.success ? parsed.output : undefined;
      const scope = await scopeKey(userId, parsed.success ? handler.scope(parsed.output) : null);
      const before = scope === null ? undefined : lanes.get(scope);
      const work = (before ?? Promise.resolve()).then(() => turn(row, handler, payload, scope));
      const tracked = work.catch((error: unknown) => {
        reportStorageError(error);
        stop ??= 'offline';
      });
      running.add(tracked);
      void tracked.finally(() => running.delete(tracked));
      if (scope !== null) lanes.set(scope, tracked);
    }
  }
  while (running.size > 0) await Promise.all(running);
  if (stop !== null) return stop;
  // A write that waited for a local id another write of this pass may have made: once more.
  if (blocked && settled) current.rerun = true;
  return 'drained';
}

/** Runs passes until nothing new was asked for meanwhile; one at a time. */
function push(): void {
  const current = engine;
  if (!current || !engineState().leading) return;
  if (current.running) {
    current.rerun = true;
    return;
  }
  current.running = true;
  if (!engineState().running) updateEngineState({ running: true });
  idlePass = (async () => {
    let end: PassEnd;
    do {
      current.rerun = false;
      const seen = engineState().requested;
      try {
        end = await runPass(current);
      } catch (error) {
        reportStorageError(error);
        end = 'offline';
      }
      // Queued in another tab after this pass last read the queue: once more.
      if (end === 'drained' && current.watchedSeq > current.seenSeq) current.rerun = true;
      if (!current.rerun) updateEngineState({ settled: seen });
    } while (current.rerun && engine === current);
    if (end === 'offline' && !current.timer) scheduleRetry(current);
    if (end === 'drained') {
      current.failures = 0;
      if (current.timer) clearTimeout(current.timer);
      current.timer = null;
    }
    await setPhase(end === 'drained' ? 'idle' : end);
    current.running = false;
    const again = current.rerun && engine === current;
    if (!again) updateEngineState({ running: false });
    // Asked for while this push was finishing: run again (nothing asked for is ever lost).
    else push();
  })();
}

/** Pushes now (where this tab leads) and resolves when the push has settled. */
export async function syncNow(): Promise<void> {
  push();
  await idlePass;
  // A request that arrived during the last round runs another one.
  while (engine?.running) await idlePass;
}

function lead(current: Engine): void {
  updateEngineState({ leading: true });
  setSyncRequestHandler(push);
  const onOnline = () => {
    current.failures = 0;
    push();
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') push();
  };
  const onWorkerMessage = (event: MessageEvent) => {
    if ((event.data as { type?: unknown } | null)?.type === 'portal:sync') push();
  };
  globalThis.addEventListener?.('online', onOnline);
  // Back after requests went unanswered (the browser may never have said offline): send at once.
  const stopReconnected = subscribeReconnected(onOnline);
  if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisible);
  globalThis.navigator?.serviceWorker?.addEventListener('message', onWorkerMessage);
  // Writes queued in other tabs (they follow; this one sends): the user's last queued write, read
  // by key. A write queued since the last pass read the queue has a higher seq and asks for a push;
  // the engine's own writes (removals) must not loop, and do not even wake this query unless they
  // remove that last write (a count would be read again at every answer; decision 385).
  let subscription: { unsubscribe(): void } | null = null;
  const watchOutbox = () => {
    subscription?.unsubscribe();
    const userId = currentUserId();
    subscription = null;
    if (userId === null) return;
    subscription = liveQuery(() => db.outbox.where('userId').equals(userId).reverse().limit(1).primaryKeys()).subscribe({
      next: ([last]) => {
        if (last === undefined) return;
        current.watchedSeq = Math.max(current.watchedSeq, last);
        // While a push runs, its pass may not have read the queue yet: it looks when it ends.
        if (!current.running && last > current.seenSeq) push();
      },
      error: () => undefined,
    });
  };
  // A new sign-in (or another user) resumes a queue paused by a 401.
  const unsubscribeSession = current.store.sub(sessionAtom, () => {
    watchOutbox();
    push();
  });
  watchOutbox();
  current.cleanups.push(() => {
    globalThis.removeEventListener?.('online', onOnline);
    stopReconnected();
    if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisible);
    globalThis.navigator?.serviceWorker?.removeEventListener('message', onWorkerMessage);
    unsubscribeSession();
    subscription?.unsubscribe();
    setSyncRequestHandler(null);
    updateEngineState({ leading: false });
  });
  void db.results
    .where('at')
    .below(Date.now() - RESULT_TTL_MS)
    .delete()
    .catch(() => undefined);
  push();
}

/**
 * Starts the engine in this tab (the layout calls it once; repeated calls are counted). Returns
 * the stop function. Without IndexedDB it does nothing.
 */
export function startSync(store: AppStore): () => void {
  bindSessionStore(store);
  if (!hasIndexedDb()) return () => undefined;
  starts += 1;
  if (!engine) {
    const stopClearingReads = clearReadsOnSignOut(store);
    const current: Engine = {
      store,
      running: false,
      rerun: false,
      pausedToken: null,
      failures: 0,
      timer: null,
      cleanups: [],
      seenSeq: 0,
      watchedSeq: 0,
    };
    engine = current;
    const locks = globalThis.navigator?.locks;
    if (locks && typeof locks.request === 'function') {
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      locks
        .request(LOCK_NAME, () => {
          if (engine !== current) return undefined;
          lead(current);
          return held;
        })
        .catch(() => {
          // Locks refused (some embedded browsers): lead anyway; idempotency keys keep it safe.
          if (engine === current) lead(current);
        });
      current.cleanups.push(release);
    } else {
      lead(current);
    }
    stopCurrent = () => {
      stopClearingReads();
      if (current.timer) clearTimeout(current.timer);
      current.cleanups.splice(0).forEach((cleanup) => cleanup());
      if (engine === current) engine = null;
    };
  }
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    starts -= 1;
    if (starts === 0) stopCurrent?.();
  };
}

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
            db.meta.get(`sync|${userId}`),
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

/** For tests: stop everything, whatever the start count. */
export function stopSyncForTests(): void {
  starts = 0;
  stopCurrent?.();
  stopCurrent = null;
  engine = null;
}
