import { useCallback, useEffect, useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import { sessionAtom, sessionUserAtom, type AppStore } from '../session/session';
import { ReadTimeout, readFailure } from '../api/failure';
import { subscribeReadAgain } from './read-again';
import { sameAnswer } from './same-answer';
import { hasIndexedDb } from './indexed-db';
import { loadStore } from './load-store';

/**
 * The device's store (Dexie) is loaded when a copy is first written or read, not with the screen:
 * a screen's first paint does not wait for it (docs/decisions.md (630)).
 */
const deviceStore = loadStore;

/**
 * The read layer: a screen's data is fetched from the server first; each answer is kept per user,
 * and when the server cannot be reached the kept copy is shown, marked with the time it was saved.
 * A screen fetches again, keeping what it shows meanwhile, when the user's queued writes are
 * answered (in any tab, decisions 340 and 403), when the device comes back online, and to follow
 * what other people change (decision 402).
 */

/** Writes settling one after another refresh once. */
const REFRESH_AFTER_SYNC_MS = 250;
/**
 * While the sync is under way, screens read again at most this long after an answer not yet
 * followed: a long sync still shows its progress, a short one reads once, at its end.
 */
export const REFRESH_DURING_SYNC_MS = 5_000;

/** One watch of the user's change count however many screens follow it (decision 385). */
const changeWatches = new Map<number, { listeners: Set<() => void>; stop: () => void }>();

/** What the watch reads: the user's change count, and whether their sync is under way (in any tab). */
interface ChangeState {
  count: number;
  syncing: boolean;
}

/**
 * Whether the screens read again for this state of the count (docs/decisions.md (605)): the count
 * grew since they last did, and the sync is not under way (its end, or a lone answer outside one),
 * or an answer has waited REFRESH_DURING_SYNC_MS for it. Reading again at every pause of a sync
 * asked the server for the list between its saves and rendered it each time.
 */
export function shouldReadAgain(
  state: ChangeState,
  followed: { count: number | undefined; waitingSince: number | null },
  now: number,
): boolean {
  if (followed.count === undefined || state.count === followed.count) return false;
  if (!state.syncing) return true;
  return followed.waitingSince !== null && now - followed.waitingSince >= REFRESH_DURING_SYNC_MS;
}

function watchServerChanges(userId: number, listener: () => void): () => void {
  let watch = changeWatches.get(userId);
  if (!watch) {
    const listeners = new Set<() => void>();
    /** The count the screens last followed, and since when an answer newer than it has waited. */
    const followed: { count: number | undefined; waitingSince: number | null } = { count: undefined, waitingSince: null };
    let stopped = false;
    let unsubscribe = () => undefined as void;
    void deviceStore().then(
      ({ liveQuery, db, readRow, changeRowSchema, changeRowId, metaRowSchema, syncPhaseRowId }) => {
        if (stopped) return;
        const subscription = liveQuery(async (): Promise<ChangeState> => {
          const [changes, phase] = await db.meta.bulkGet([changeRowId(userId), syncPhaseRowId(userId)]);
          return {
            count: readRow('meta', changeRowSchema, changes)?.count ?? 0,
            syncing: readRow('meta', metaRowSchema, phase)?.phase === 'syncing',
          };
        }).subscribe({
          next: (state) => {
            const now = Date.now();
            if (followed.count === undefined) followed.count = state.count;
            if (state.count !== followed.count) followed.waitingSince ??= now;
            if (!shouldReadAgain(state, followed, now)) return;
            followed.count = state.count;
            followed.waitingSince = null;
            listeners.forEach((notify) => notify());
          },
          error: () => undefined,
        });
        unsubscribe = () => subscription.unsubscribe();
      },
      () => undefined,
    );
    watch = {
      listeners,
      stop: () => {
        stopped = true;
        unsubscribe();
      },
    };
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
 * Calls `onChange` when the count of the user's writes the server has answered grows, in any tab,
 * once the sync is no longer under way and answers stop coming for REFRESH_AFTER_SYNC_MS. Followed outside React's state: the screen
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
  return failure.kind === 'offline' || failure.status === 408 || failure.status >= 500;
}

/**
 * How long a screen waits for its read before it says the portal is not answering and shows its
 * saved copy (decision 400); an answer that comes later is still shown.
 */
export const READ_TIMEOUT_MS = 15_000;
let readTimeoutMs = READ_TIMEOUT_MS;

/** For tests: a shorter wait (null: READ_TIMEOUT_MS again). */
export function setReadTimeoutForTests(ms: number | null): void {
  readTimeoutMs = ms ?? READ_TIMEOUT_MS;
}

export interface CachedQuery<T> {
  data: T | undefined;
  /** When `data` was fetched (ms since the epoch). */
  savedAt: number | undefined;
  /** `data` is the device's copy, not a fresh answer: the last fetch failed. */
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
  try {
    const { db, draftRowId } = await deviceStore();
    await db.cache.put({ id: draftRowId(userId, key), userId, key, data, savedAt });
  } catch {
    // No copy kept this time (the store or its code unavailable): the screen shows the answer all the same.
  }
}

async function readCopy(userId: number, key: string): Promise<{ data: unknown; savedAt: number } | undefined> {
  if (!hasIndexedDb()) return undefined;
  try {
    const { db, draftRowId, readRow, cacheRowSchema } = await deviceStore();
    const row = readRow('cache', cacheRowSchema, await db.cache.get(draftRowId(userId, key)));
    return row ? { data: row.data, savedAt: row.savedAt } : undefined;
  } catch {
    return undefined;
  }
}

type Settled<T> = { ok: true; data: T } | { ok: false; error: unknown };

function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (data) => ({ ok: true as const, data }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

/** The fetch's outcome, or a ReadTimeout once READ_TIMEOUT_MS have passed without one. */
function withinTime<T>(fetching: Promise<Settled<T>>): Promise<Settled<T> | 'late'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), readTimeoutMs);
  });
  return Promise.race([fetching, late]).finally(() => clearTimeout(timer));
}

interface QueryState<T> extends Omit<CachedQuery<T>, 'reload'> {
  /** The query `data` answers (while another key loads, the previous answer stays on screen). */
  key: string | null;
}

/**
 * `key` names the query (include every parameter, e.g. `records?page=2`); null waits.
 * `fetcher` throws on failure (use `unwrap`). The copy is the signed-in user's only. The query is
 * read again when the user's writes are answered (in any tab), when the device comes back online,
 * when the page is seen again and every FOLLOW_INTERVAL_MS while it is (decision 402); meanwhile
 * it keeps what it shows. A read that fails while the screen shows this query's answer keeps that
 * answer, now as the device's copy.
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
  const [state, setState] = useState<QueryState<T>>({
    key: null,
    data: undefined,
    savedAt: undefined,
    fromCache: false,
    error: undefined,
    loading: true,
  });

  useEffect(() => {
    if (key === null || userId === null) return undefined;
    let active = true;
    setState((previous) => (previous.loading ? previous : { ...previous, loading: true }));
    const fresh = (data: T) => {
      const savedAt = Date.now();
      setState((previous) => ({
        key,
        // The same answer as before keeps the object shown: nothing on screen renders for it.
        data: previous.key === key && sameAnswer(previous.data, data) ? previous.data : data,
        savedAt,
        fromCache: false,
        error: undefined,
        loading: false,
      }));
      void writeCopy(userId, key, data, savedAt);
    };
    const failed = async (error: unknown) => {
      const copy = mayUseCopy(error) ? await readCopy(userId, key) : undefined;
      if (!active) return;
      const parse = parseRef.current;
      const data = copy === undefined ? undefined : parse ? parse(copy.data) : (copy.data as T);
      setState((previous) => {
        // What this screen shows of this query stays, as the device's copy.
        if (mayUseCopy(error) && previous.key === key && previous.data !== undefined) {
          return { ...previous, fromCache: true, error, loading: false };
        }
        if (copy && data !== null && data !== undefined) {
          return { key, data, savedAt: copy.savedAt, fromCache: true, error, loading: false };
        }
        return { key, data: undefined, savedAt: undefined, fromCache: false, error, loading: false };
      });
    };
    void (async () => {
      const fetching = settle(fetcherRef.current());
      const outcome = await withinTime(fetching);
      if (!active) return;
      if (outcome === 'late') {
        await failed(new ReadTimeout());
        // Still asked for: a late answer is shown when it comes.
        const late = await fetching;
        if (active && late.ok) fresh(late.data);
        return;
      }
      if (outcome.ok) fresh(outcome.data);
      else await failed(outcome.error);
    })();
    return () => {
      active = false;
    };
  }, [key, userId, attempt]);

  const reload = useCallback(() => setAttempt((value) => value + 1), []);

  // The user's writes were answered: what this screen shows may have changed.
  useServerChanges(userId, reload);

  // Other people's changes, and the device back online (decision 402).
  useEffect(() => {
    if (key === null || userId === null) return undefined;
    return subscribeReadAgain(reload);
  }, [key, userId, reload]);

  const { key: _key, ...shown } = state;
  return { ...shown, reload };
}

/** Removes every read the device keeps for this user (drafts and unsent writes stay: they are theirs to send). */
async function clearCachedReads(userId: number): Promise<void> {
  if (!hasIndexedDb()) return;
  const { db } = await deviceStore();
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
