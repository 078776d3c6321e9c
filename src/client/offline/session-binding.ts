import { endSession, sessionAtom, type AppStore } from '../session/session';

/**
 * The offline layer works outside React (the sync engine, enqueue), so it reads the session from
 * the app's jotai store, bound once by startSync (and by the offline hooks, which see the store).
 */
let boundStore: AppStore | null = null;

export function bindSessionStore(store: AppStore): void {
  boundStore = store;
}

export function boundSessionStore(): AppStore | null {
  return boundStore;
}

export function currentUserId(): number | null {
  const session = boundStore?.get(sessionAtom);
  return session?.status === 'signedIn' ? session.user.id : null;
}

export function currentToken(): string | null {
  const session = boundStore?.get(sessionAtom);
  return session && session.status !== 'signedOut' ? session.token : null;
}

/** A write sent outside openapi-fetch (the upload's XMLHttpRequest) was refused with 401. */
export function sessionUnauthorized(): void {
  if (boundStore && currentToken()) endSession(boundStore, 'unauthorized');
}

export function requireUserId(): number {
  const userId = currentUserId();
  if (userId === null) throw new Error('offline: no signed-in user');
  return userId;
}
