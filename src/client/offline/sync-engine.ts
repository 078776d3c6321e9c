import { liveQuery } from 'dexie';
import { useAtomValue } from 'jotai';
import { useSyncExternalStore } from 'react';
import * as v from 'valibot';
import { sessionAtom, sessionUserAtom, type AppStore } from '../session/session';
import {
  db,
  draftRowId,
  draftRowSchema,
  hasIndexedDb,
  idMapRowSchema,
  metaRowSchema,
  newUuid,
  outboxRowSchema,
  readRow,
  readRows,
  resultRowSchema,
  uploadRowSchema,
  type DraftRow,
  type OutboxRow,
  type UploadRow,
} from './db';
import { engineState, setSyncRequestHandler, subscribeEngineState, updateEngineState, type SyncPhase } from './engine-state';
import { useSafeLiveQuery } from './live';
import { payloadSchemas, sendMutation, type SendOutcome } from './mutations';
import { countDraftsNeedingAttention } from './drafts';
import { reportStorageError } from './persist';
import { bindSessionStore, currentToken, currentUserId } from '../session/current-session';
import { uploadErrorText } from './uploads';

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
/** Upload progress is written to the device at most this often per file. */
const PROGRESS_STEP = 0.05;

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

function rekey(key: string | undefined, localId: string, serverId: number): string | undefined {
  const prefix = `application:${localId}:`;
  return key?.startsWith(prefix) ? `application:${serverId}:${key.slice(prefix.length)}` : key;
}

/**
 * Changes an upload's row by get and put: Dexie's update() clones the row's object and, in some
 * environments, turns the file's ArrayBuffer into a plain object on the way.
 */
async function patchUpload(localId: string, patch: Partial<UploadRow>): Promise<void> {
  await db
    .transaction('rw', db.uploads, async () => {
      const row = await db.uploads.get(localId);
      if (!row) return;
      const next: UploadRow = { ...row, ...patch };
      if (patch.error === undefined && 'error' in patch) delete next.error;
      await db.uploads.put(next);
    })
    .catch(() => undefined);
}

/** Once an application created offline exists: its drafts, queued writes and files follow the real id. */
async function followServerId(userId: number, localId: string, serverId: number): Promise<void> {
  await db.idMap.put({ localId, userId, serverId });
  const drafts = readRows('drafts', draftRowSchema, await db.drafts.where('userId').equals(userId).toArray());
  for (const draft of drafts) {
    const key = rekey(draft.key, localId, serverId);
    if (!key || key === draft.key) continue;
    await db.drafts.delete(draft.id);
    await db.drafts.put({ ...draft, id: draftRowId(userId, key), key });
  }
  const queued = await db.outbox.where('userId').equals(userId).toArray();
  for (const row of queued) {
    const key = rekey(row.draftKey, localId, serverId);
    if (key !== row.draftKey) await db.outbox.update(row.seq, { draftKey: key });
  }
  const uploads = await db.uploads.where('[userId+applicationId]').equals([userId, localId]).toArray();
  for (const upload of uploads) await db.uploads.put({ ...upload, applicationId: String(serverId) });
}

/** The value a refused or conflicting write carried, for a draft that no longer exists. */
function payloadValue(row: OutboxRow): unknown {
  if (row.kind === 'saveStep') return (row.payload as { data?: unknown }).data;
  if (row.kind === 'createApplication') return (row.payload as { personal?: unknown }).personal;
  return undefined;
}

/** An application as the server knows it ('42'), or null for a local one not created yet. */
async function serverRefOf(userId: number, applicationId: number | string): Promise<string | null> {
  if (typeof applicationId === 'number' || /^\d+$/.test(applicationId)) return String(applicationId);
  const mapped = readRow('idMap', idMapRowSchema, await db.idMap.get(applicationId));
  return mapped && mapped.userId === userId ? String(mapped.serverId) : null;
}

/** Every name the outbox and the drafts may use for one application (its server and local ids). */
async function namesOf(userId: number, applicationId: number | string): Promise<Set<string>> {
  const names = new Set([String(applicationId)]);
  const server = await serverRefOf(userId, applicationId);
  if (server === null) return names;
  names.add(server);
  const mapped = readRows('idMap', idMapRowSchema, await db.idMap.where('userId').equals(userId).toArray());
  for (const row of mapped) if (String(row.serverId) === server) names.add(row.localId);
  return names;
}

/**
 * A step save of this user based on a version their own earlier save has replaced (the same step
 * saved twice offline, or reopened after a save that was still queued, or the documents list stored
 * on leaving the step) would come back as a conflict with their own work. It is sent on the version
 * that save made; a save by anyone else in between still answers 409.
 */
async function rebaseOnOwnSaves(row: OutboxRow): Promise<OutboxRow> {
  const payload = v.safeParse(payloadSchemas.saveStep, row.payload);
  if (!payload.success) return row;
  const { applicationId, step, baseVersion } = payload.output;
  const ref = await serverRefOf(row.userId, applicationId);
  if (ref === null) return row;
  const made = new Map<number, number>();
  const results = readRows('results', resultRowSchema, await db.results.where('userId').equals(row.userId).toArray());
  for (const result of results) {
    if (result.save && result.save.applicationId === ref && result.save.step === step) made.set(result.save.from, result.save.to);
  }
  let version = baseVersion;
  while (made.has(version) && made.get(version)! > version) version = made.get(version)!;
  if (version === baseVersion) return row;
  const next = { ...row, payload: { ...payload.output, baseVersion: version } };
  await db.outbox.update(row.seq, { payload: next.payload });
  return next;
}

/**
 * A submit goes only after every write of its application: it waits while a save of that
 * application is queued after it (typed after submitting offline) or a step of it was refused or is
 * in conflict, so the application is never submitted without what the user is still fixing.
 */
async function submitMustWait(row: OutboxRow): Promise<boolean> {
  const payload = v.safeParse(payloadSchemas.submitApplication, row.payload);
  if (!payload.success) return false;
  const names = await namesOf(row.userId, payload.output.applicationId);
  const laterSave = await db.outbox
    .where('seq')
    .above(row.seq)
    .filter((other) => other.userId === row.userId && other.kind === 'saveStep' && names.has(applicationRefOf(other) ?? ''))
    .first();
  if (laterSave) return true;
  const needingAttention = await db.drafts
    .where('[userId+status]')
    .anyOf([
      [row.userId, 'rejected'],
      [row.userId, 'conflict'],
    ])
    .toArray();
  return readRows('drafts', draftRowSchema, needingAttention).some((draft) =>
    [...names].some((name) => draft.key.startsWith(`application:${name}:`)),
  );
}

async function applyOutcome(row: OutboxRow, outcome: Extract<SendOutcome, { type: 'done' | 'rejected' | 'conflict' }>): Promise<void> {
  const { userId } = row;
  await db.transaction('rw', [db.outbox, db.drafts, db.results, db.idMap, db.uploads], async () => {
    await db.outbox.delete(row.seq);
    const at = Date.now();
    let draftKey = row.draftKey;

    if (outcome.type === 'done') {
      await db.results.put({ id: row.id, userId, status: 'done', body: outcome.body, at });
      let version: number | undefined;
      if (row.kind === 'createApplication') {
        const serverId = (outcome.body as { id?: unknown } | undefined)?.id;
        const { localId } = v.parse(payloadSchemas.createApplication, row.payload);
        if (typeof serverId === 'number') {
          await followServerId(userId, localId, serverId);
          draftKey = rekey(draftKey, localId, serverId);
        }
      } else if (row.kind === 'saveStep') {
        const answer = outcome.body as { version?: unknown } | undefined;
        const sent = v.parse(payloadSchemas.saveStep, row.payload);
        const ref = await serverRefOf(userId, sent.applicationId);
        if (typeof answer?.version === 'number') {
          version = answer.version;
          if (ref !== null) {
            const save = { applicationId: ref, step: sent.step, from: sent.baseVersion, to: version };
            await db.results.put({ id: row.id, userId, status: 'done', body: outcome.body, save, at });
          }
        }
      } else if (row.kind === 'uploadFile') {
        const { localId } = v.parse(payloadSchemas.uploadFile, row.payload);
        const file = outcome.body as { id?: unknown; key?: unknown } | undefined;
        const upload = readRow('uploads', uploadRowSchema, await db.uploads.get(localId));
        if (typeof file?.id === 'number' && typeof file.key === 'string') {
          await db.idMap.put({ localId, userId, serverId: file.id, key: file.key });
          if (upload) {
            const { data: _data, error: _error, ...rest } = upload;
            await db.uploads.put({ ...rest, status: 'uploaded', progress: 1, fileId: file.id, key: file.key });
          } else {
            // Removed while it was being sent: remove it from the server too.
            await db.outbox.add({ id: newUuid(), userId, kind: 'deleteFile', payload: { fileKey: file.key }, createdAt: at, attempts: 0 });
          }
        }
      }
      if (draftKey !== undefined) {
        const draft = readRow('drafts', draftRowSchema, await db.drafts.get(draftRowId(userId, draftKey)));
        if (draft && draft.updatedAt === row.draftUpdatedAt && draft.status === 'queued') {
          await db.drafts.delete(draft.id);
        } else if (draft) {
          // Edited after the save was queued: the edit stays, now based on the saved version.
          const { serverCodes: _codes, serverError: _error, ...rest } = draft;
          await db.drafts.put({ ...rest, status: draft.status === 'queued' ? 'editing' : draft.status, baseVersion: version ?? draft.baseVersion });
        }
      }
      return;
    }

    if (outcome.type === 'rejected') {
      const fields = outcome.fields ?? {};
      await db.results.put({ id: row.id, userId, status: 'rejected', error: outcome.error, fields, at });
      if (row.kind === 'uploadFile') {
        const { localId } = v.parse(payloadSchemas.uploadFile, row.payload);
        const upload = readRow('uploads', uploadRowSchema, await db.uploads.get(localId));
        if (upload) {
          await db.uploads.put({ ...upload, status: 'failed', progress: 0, error: uploadErrorText(fields.file ?? outcome.error, upload.fileName) });
        }
      }
    } else {
      await db.results.put({ id: row.id, userId, status: 'conflict', current: outcome.current, at });
    }
    if (draftKey === undefined) return;
    const id = draftRowId(userId, draftKey);
    const draft: DraftRow = readRow('drafts', draftRowSchema, await db.drafts.get(id)) ?? {
      id,
      userId,
      key: draftKey,
      value: payloadValue(row),
      baseVersion: (row.payload as { baseVersion?: number }).baseVersion ?? 0,
      updatedAt: at,
      status: 'editing',
    };
    if (outcome.type === 'rejected') {
      const { conflict: _conflict, ...rest } = draft;
      await db.drafts.put({ ...rest, status: 'rejected', serverCodes: outcome.fields ?? {}, serverError: outcome.error });
    } else {
      const { serverCodes: _codes, serverError: _error, ...rest } = draft;
      await db.drafts.put({ ...rest, status: 'conflict', conflict: outcome.current });
    }
  });
}

/** The application a write names (a create and an upload name none: they key on their own ids). */
function applicationRefOf(row: OutboxRow): string | null {
  const ref = (row.payload as { applicationId?: unknown } | null)?.applicationId;
  return typeof ref === 'number' || typeof ref === 'string' ? String(ref) : null;
}

type PassEnd = 'drained' | 'offline' | 'paused';

async function runPass(current: Engine): Promise<PassEnd> {
  const userId = currentUserId();
  if (userId === null) return 'paused';
  if (current.pausedToken !== null && current.pausedToken === currentToken()) return 'paused';
  current.pausedToken = null;
  const blockedApplications = new Set<string>();
  const progressWritten = new Map<string, number>();
  const onUploadProgress = (localId: string, progress: number) => {
    const last = progressWritten.get(localId) ?? 0;
    if (progress < 1 && progress - last < PROGRESS_STEP) return;
    progressWritten.set(localId, progress);
    void patchUpload(localId, { progress, status: 'uploading' });
  };

  // Rows are taken in order of seq, each read on its own after the last one handled: a long queue
  // costs one small read per write, not a read of the whole queue per write.
  let lastSeq = 0;
  for (;;) {
    // Stopped (the layout went away), or another user signed in meanwhile: stop here.
    if (engine !== current || currentUserId() !== userId) return 'paused';
    const next = await db.outbox
      .where('seq')
      .above(lastSeq)
      .filter((row) => row.userId === userId)
      .first();
    if (!next) return 'drained';
    lastSeq = next.seq;
    if (engineState().phase !== 'syncing') await setPhase('syncing');
    const row = readRow('outbox', outboxRowSchema, next);
    const ref = row ? applicationRefOf(row) : null;
    // Unreadable (reported, kept), or behind a write for the same application that must wait.
    if (!row || (ref !== null && blockedApplications.has(ref))) continue;
    // Held, not blocked: the writes after it (the save it waits for) go on.
    if (row.kind === 'submitApplication' && (await submitMustWait(row))) continue;
    if (row.kind === 'uploadFile') {
      const { localId } = row.payload as { localId: string };
      await patchUpload(localId, { status: 'uploading', progress: 0, error: undefined });
    }
    let outcome: SendOutcome;
    // What is sent (a save possibly rebased on the user's own newer version) is what the outcome
    // records: its `from` must be the version actually sent, or two records would claim one version.
    let sending = row;
    try {
      if (row.kind === 'saveStep') sending = await rebaseOnOwnSaves(row);
      outcome = await sendMutation(sending, { userId, onUploadProgress });
    } catch {
      outcome = { type: 'retry' };
    }
    if (outcome.type !== 'done' && row.kind === 'uploadFile') {
      const { localId } = row.payload as { localId: string };
      if (outcome.type !== 'rejected') await patchUpload(localId, { status: 'queued', progress: 0 });
    }
    switch (outcome.type) {
      case 'blocked':
        if (ref !== null) blockedApplications.add(ref);
        continue;
      case 'unauthorized':
        current.pausedToken = currentToken();
        return 'paused';
      case 'retry':
        if (outcome.retryAfterMs !== undefined) scheduleRetry(current, outcome.retryAfterMs);
        return 'offline';
      default:
        current.failures = 0;
        await applyOutcome(sending, outcome);
    }
  }
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
    let end: PassEnd = 'drained';
    do {
      current.rerun = false;
      const seen = engineState().requested;
      try {
        end = await runPass(current);
      } catch (error) {
        reportStorageError(error);
        end = 'offline';
      }
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
  if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisible);
  globalThis.navigator?.serviceWorker?.addEventListener('message', onWorkerMessage);
  // A new sign-in (or another user) resumes a queue paused by a 401.
  const unsubscribeSession = current.store.sub(sessionAtom, () => push());
  // Writes queued in other tabs (they follow; this one sends).
  // Only a growing outbox asks for a push: the engine's own writes (removals) must not loop.
  let known = Number.POSITIVE_INFINITY;
  const subscription = liveQuery(() => db.outbox.count()).subscribe({
    next: (count) => {
      if (count > known) push();
      known = count;
    },
    error: () => undefined,
  });
  current.cleanups.push(() => {
    globalThis.removeEventListener?.('online', onOnline);
    if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisible);
    globalThis.navigator?.serviceWorker?.removeEventListener('message', onWorkerMessage);
    unsubscribeSession();
    subscription.unsubscribe();
    setSyncRequestHandler(null);
    updateEngineState({ leading: false });
  });
  void db.results.where('at').below(Date.now() - RESULT_TTL_MS).delete().catch(() => undefined);
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
    const current: Engine = { store, running: false, rerun: false, pausedToken: null, failures: 0, timer: null, cleanups: [] };
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
  state: 'saved' | 'waiting' | 'syncing' | 'attention';
  /** Writes of the user still on the device. */
  waiting: number;
}

/** The shell's sync state for the signed-in user, in this tab and any other. */
export function useSyncStatus(): SyncStatus {
  const user = useAtomValue(sessionUserAtom);
  const userId = user?.id ?? null;
  const localPhase = useSyncExternalStore(subscribeEngineState, () => engineState().phase, () => 'idle' as SyncPhase);
  const leading = useSyncExternalStore(subscribeEngineState, () => engineState().leading, () => false);
  const counts = useSafeLiveQuery(
    async () => {
      if (userId === null) return { waiting: 0, attention: 0, phase: 'idle' as SyncPhase };
      // Index counts only: this runs after every draft write, and upload rows hold the files' bytes.
      const [waiting, drafts, failedUploads, meta] = await Promise.all([
        db.outbox.where('userId').equals(userId).count(),
        countDraftsNeedingAttention(userId),
        db.uploads.where('[userId+status]').equals([userId, 'failed']).count(),
        db.meta.get(`sync|${userId}`),
      ]);
      const attention = drafts + failedUploads;
      const phase = readRow('meta', metaRowSchema, meta)?.phase ?? 'idle';
      return { waiting, attention, phase };
    },
    [userId],
    { waiting: 0, attention: 0, phase: 'idle' as SyncPhase },
  );
  const waiting = counts?.waiting ?? 0;
  const phase = leading ? localPhase : (counts?.phase ?? 'idle');
  if ((counts?.attention ?? 0) > 0) return { state: 'attention', waiting };
  if (waiting > 0 && phase === 'syncing') return { state: 'syncing', waiting };
  if (waiting > 0) return { state: 'waiting', waiting };
  return { state: 'saved', waiting };
}

/** The shell's words for a sync state. */
export function syncStatusText({ state, waiting }: SyncStatus): string {
  switch (state) {
    case 'saved':
      return 'All changes saved';
    case 'syncing':
      return 'Syncing…';
    case 'attention':
      return 'Needs your attention';
    case 'waiting':
      return `${waiting} ${waiting === 1 ? 'change' : 'changes'} waiting for a connection`;
  }
}

/** For tests: stop everything, whatever the start count. */
export function stopSyncForTests(): void {
  starts = 0;
  stopCurrent?.();
  stopCurrent = null;
  engine = null;
}
