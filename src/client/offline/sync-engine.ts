import { liveQuery } from 'dexie';
import { subscribeReconnected } from '../api/connection';
import { sessionAtom, type AppStore } from '../session/session';
import { db, hasIndexedDb } from './db';
import { engineState, setSyncRequestHandler, updateEngineState } from './engine-state';
import { clearReadsOnSignOut } from './cache';
import { reportStorageError } from './persist';
import { runPass, type PassEnd, type PassRunner } from './sync-send';
import { setPhase } from './sync-phase';
import { bindSessionStore, currentUserId } from '../session/current-session';

/**
 * The sync engine: pushes the signed-in user's outbox to the server, in order, on start, on
 * `online`, when the page becomes visible, when something is queued, and on a timer with jittered
 * exponential backoff while writes wait. One tab leads (Web Locks; without them every tab runs,
 * which the idempotency keys make safe); the others follow through Dexie's live queries.
 *
 * This file is the leading: starting, the one tab that sends, when passes run and the retries. A
 * pass's sending is sync-send.ts, what an answer writes sync-settle.ts, and what the shell says of
 * it use-sync-status.ts.
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

interface Engine extends PassRunner {
  store: AppStore;
  running: boolean;
  timer: ReturnType<typeof setTimeout> | null;
  cleanups: (() => void)[];
  /** The highest seq of the user's last queued write, as the outbox watch last saw it. */
  watchedSeq: number;
}

let engine: Engine | null = null;
let starts = 0;
let stopCurrent: (() => void) | null = null;
let idlePass: Promise<void> = Promise.resolve();

function scheduleRetry(current: Engine, delayMs?: number): void {
  if (current.timer) clearTimeout(current.timer);
  const delay = delayMs ?? backoffDelay(current.failures);
  current.failures += 1;
  current.timer = setTimeout(() => {
    current.timer = null;
    push();
  }, delay);
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
      isCurrent: () => engine === current,
      retryAfter: (delayMs) => scheduleRetry(current, delayMs),
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

/** For tests: the push under way (a stopped engine's too), which still writes this tab's engine state when it ends. */
export function lastPushForTests(): Promise<void> {
  return idlePass;
}

/** For tests: stop everything, whatever the start count. */
export function stopSyncForTests(): void {
  starts = 0;
  stopCurrent?.();
  stopCurrent = null;
  engine = null;
}
