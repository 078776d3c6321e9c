import { liveQuery } from 'dexie';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import { sessionAtom, sessionUserAtom, type AppStore } from '../session/session';
import { readFailure } from '../api/failure';
import { cacheRowSchema, changeRowId, changeRowSchema, db, draftRowId, hasIndexedDb, readRow } from './db';

/**
 * Offline reads: a screen's data is fetched from the server first; each answer is kept per user,
 * and when the server cannot be reached the kept copy is shown, marked with the time it was saved.
 * A screen fetches again, keeping what it shows meanwhile, when the user's queued writes reach the
 * server (in any tab) and when a saved copy is shown and the device is back online (decision 340).
 */

/** Writes settling one after another refresh once. */
const REFRESH_AFTER_SYNC_MS = 250;

/** One watch of the user's change count however many screens follow it (decision 385). */
const changeWatches = new Map<number, { listeners: Set<() => void>; stop: () => void }>();

function watchServerChanges(userId: number, listener: () => void): () => void {
  let watch = changeWatches.get(userId);
  if (!watch) {
    const listeners = new Set<() => void>();
    let seen: number | undefined;
    const subscription = liveQuery(
      async () => readRow('meta', changeRowSchema, await db.meta.get(changeRowId(userId)))?.count ?? 0,
    ).subscribe({
      next: (count) => {
        const before = seen;
        seen = count;
        if (before !== undefined && before !== count) listeners.forEach((notify) => notify());
      },
      error: () => undefined,
    });
    watch = { listeners, stop: () => subscription.unsubscribe() };
    changeWatches.set(userId, watch);
  }
  const current = watch;
  current.listeners.add(listener);
  return () => {
    current.listeners.delete(listener);
    if (current.listeners.size > 0) return;
    current.stop();
    if (changeWatches.get(userId) === current) changeWatches.delete(userId);
  };
}

/**
 * Calls `onChange` when the count of the user's writes the server has taken grows, in any tab,
 * once they stop coming for REFRESH_AFTER_SYNC_MS. Followed outside React's state: the screen
 * renders only when it fetches again, not at every answer of a sync (decision 385).
 */
function useServerChanges(userId: number | null, onChange: () => void): void {
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  useEffect(() => {
    if (userId === null || !hasIndexedDb()) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unwatch = watchServerChanges(userId, () => {
      clearTimeout(timer);
      timer = setTimeout(() => onChangeRef.current(), REFRESH_AFTER_SYNC_MS);
    });
    return () => {
      unwatch();
      clearTimeout(timer);
    };
  }, [userId]);
}

/** No answer, or a server failure: the kept copy may stand in. */
function mayUseCopy(error: unknown): boolean {
  const failure = readFailure(error);
  return failure.kind === 'offline' || failure.status >= 500;
}

export interface CachedQuery<T> {
  data: T | undefined;
  /** When `data` was fetched (ms since the epoch). */
  savedAt: number | undefined;
  /** `data` is the device's copy, not a fresh answer. */
  fromCache: boolean;
  /** The last fetch's failure (also when a copy is shown). */
  error: unknown;
  loading: boolean;
  reload: () => void;
}

export interface CachedQueryOptions<T> {
  /** Checks a kept copy (written by any earlier version); null when it cannot be used. */
  parse?: (stored: unknown) => T | null;
}

async function writeCopy(userId: number, key: string, data: unknown, savedAt: number): Promise<void> {
  if (!hasIndexedDb()) return;
  await db.cache.put({ id: draftRowId(userId, key), userId, key, data, savedAt }).catch(() => undefined);
}

async function readCopy(userId: number, key: string): Promise<{ data: unknown; savedAt: number } | undefined> {
  if (!hasIndexedDb()) return undefined;
  const row = readRow('cache', cacheRowSchema, await db.cache.get(draftRowId(userId, key)).catch(() => undefined));
  return row ? { data: row.data, savedAt: row.savedAt } : undefined;
}

/**
 * `key` names the query (include every parameter, e.g. `records?page=2`); null waits.
 * `fetcher` throws on failure (use `unwrap`). The copy is the signed-in user's only.
 */
export function useCachedQuery<T>(
  key: string | null,
  fetcher: () => Promise<T>,
  options: CachedQueryOptions<T> = {},
): CachedQuery<T> {
  const user = useAtomValue(sessionUserAtom);
  const userId = user?.id ?? null;
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  const parseRef = useRef(options.parse);
  parseRef.current = options.parse;
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<Omit<CachedQuery<T>, 'reload'>>({
    data: undefined,
    savedAt: undefined,
    fromCache: false,
    error: undefined,
    loading: true,
  });

  useEffect(() => {
    if (key === null || userId === null) return undefined;
    let active = true;
    setState((previous) => ({ ...previous, loading: true }));
    void (async () => {
      try {
        const data = await fetcherRef.current();
        const savedAt = Date.now();
        if (!active) return;
        setState({ data, savedAt, fromCache: false, error: undefined, loading: false });
        await writeCopy(userId, key, data, savedAt);
      } catch (error) {
        const copy = mayUseCopy(error) ? await readCopy(userId, key) : undefined;
        if (!active) return;
        const parse = parseRef.current;
        const data = copy === undefined ? undefined : parse ? parse(copy.data) : (copy.data as T);
        if (copy && data !== null && data !== undefined) {
          setState({ data, savedAt: copy.savedAt, fromCache: true, error, loading: false });
        } else {
          setState({ data: undefined, savedAt: undefined, fromCache: false, error, loading: false });
        }
      }
    })();
    return () => {
      active = false;
    };
  }, [key, userId, attempt]);

  const reload = useCallback(() => setAttempt((value) => value + 1), []);

  // The user's writes reached the server: what this screen shows may be stale.
  useServerChanges(userId, reload);

  // Back online while the device's copy (or a failure) is shown: ask the server again.
  const stale = state.fromCache || (state.data === undefined && state.error !== undefined);
  useEffect(() => {
    if (!stale) return undefined;
    globalThis.addEventListener?.('online', reload);
    return () => globalThis.removeEventListener?.('online', reload);
  }, [stale, reload]);

  return { ...state, reload };
}

/** Removes every read the device keeps for this user (drafts and unsent writes stay: they are theirs to send). */
async function clearCachedReads(userId: number): Promise<void> {
  if (!hasIndexedDb()) return;
  await db.cache.where('userId').equals(userId).delete();
}

/**
 * When a user signs out (or is signed out, or another user signs in), what the device kept of their
 * reads is removed, so the next person at the device finds none of it, even offline.
 */
export function clearReadsOnSignOut(store: AppStore): () => void {
  const userOf = () => {
    const session = store.get(sessionAtom);
    return session.status === 'signedIn' ? session.user.id : null;
  };
  let current = userOf();
  return store.sub(sessionAtom, () => {
    const next = userOf();
    const session = store.get(sessionAtom);
    // 'restoring' keeps the token (a reload): not a sign-out.
    if (current !== null && next !== current && (next !== null || session.status === 'signedOut')) {
      void clearCachedReads(current).catch(() => undefined);
    }
    if (next !== null || session.status === 'signedOut') current = next;
  });
}
