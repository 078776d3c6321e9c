import * as v from 'valibot';
import { atom, createStore } from 'jotai';
import { api, setAuthHandlers } from '../api/client';
import { roles } from '../../shared/rules/permissions';
import { SESSION_IDLE_TIMEOUT_MS } from '../../shared/rules/limits';
import { forgetSignedInUser, rememberSignedInUser } from '../pwa/signed-in-user';

/**
 * The signed-in user. The token lives in localStorage under `token` rather than the spec's session
 * storage: an installed PWA must reopen offline still signed in (docs/decisions.md). The server keeps
 * sessions revocable and ends them after 30 h idle; the last user is cached beside the token so the
 * shell renders offline, and `GET /auth` refreshes it whenever the app starts online.
 */

/** Stored data is checked when read: a cache written by another version never crashes the app. */
const sessionUserSchema = v.object({
  id: v.number(),
  firmId: v.nullable(v.number()),
  lawyerId: v.nullable(v.number()),
  customerId: v.nullable(v.number()),
  role: v.picklist(roles),
  permissions: v.array(v.string()),
  email: v.string(),
  name: v.string(),
  surname: v.string(),
});
export type SessionUser = v.InferOutput<typeof sessionUserSchema>;

/** Why there is no session: decides whether sign-in should bring the user back to the page. */
export type SignedOutReason = 'none' | 'signedOut' | 'expired' | 'unauthorized';

export type SessionState =
  | { status: 'signedIn'; token: string; user: SessionUser }
  /** A token without a usable cached user: `GET /auth` decides. */
  | { status: 'restoring'; token: string }
  | { status: 'signedOut'; reason: SignedOutReason };

export const sessionAtom = atom<SessionState>({ status: 'signedOut', reason: 'none' });

export const sessionUserAtom = atom((get) => {
  const session = get(sessionAtom);
  return session.status === 'signedIn' ? session.user : null;
});

export type AppStore = ReturnType<typeof createStore>;

export const TOKEN_KEY = 'token';
const USER_KEY = 'sessionUser';
/** Last user activity (ms), shared by every tab of the app. */
const ACTIVITY_KEY = 'lastActivity';

function storageGet(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function storageSet(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage disabled or full: the session still works until the page is closed.
  }
}

function storageRemove(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing stored that could be removed.
  }
}

export function recordActivity(now = Date.now()): void {
  storageSet(ACTIVITY_KEY, String(now));
}

export function lastActivity(): number | null {
  const value = Number(storageGet(ACTIVITY_KEY));
  return Number.isFinite(value) && value > 0 ? value : null;
}

export function isIdleExpired(now = Date.now()): boolean {
  const last = lastActivity();
  return last !== null && now - last > SESSION_IDLE_TIMEOUT_MS;
}

function parseUser(raw: string | null): SessionUser | null {
  if (!raw) return null;
  try {
    const result = v.safeParse(sessionUserSchema, JSON.parse(raw));
    return result.success ? result.output : null;
  } catch {
    return null;
  }
}

/**
 * A device signed out shows no more notifications: the service worker's record of the user goes,
 * and so does the browser's push subscription (its code loads only then).
 */
function forgetPushDevice(): void {
  void forgetSignedInUser();
  void import('../pwa/push-browser').then(({ unsubscribeBrowser }) => unsubscribeBrowser()).catch(() => undefined);
}

function clearStorage(): void {
  storageRemove(TOKEN_KEY);
  storageRemove(USER_KEY);
  storageRemove(ACTIVITY_KEY);
  forgetPushDevice();
}

/** The session as stored on this device (on load, and when another tab changes it). */
export function readStoredSession(now = Date.now()): SessionState {
  const token = storageGet(TOKEN_KEY);
  if (!token) return { status: 'signedOut', reason: 'none' };
  if (isIdleExpired(now)) {
    clearStorage();
    return { status: 'signedOut', reason: 'expired' };
  }
  const user = parseUser(storageGet(USER_KEY));
  return user ? { status: 'signedIn', token, user } : { status: 'restoring', token };
}

export function startSession(store: AppStore, token: string, user: SessionUser): void {
  const stored = JSON.stringify(user);
  storageSet(TOKEN_KEY, token);
  storageSet(USER_KEY, stored);
  recordActivity();
  // The service worker shows this user's notifications only (decision 685).
  void rememberSignedInUser(user.id);
  // The server's answer on start is usually the user already shown: keeping the same state spares
  // every screen a render of the same page right after its first paint (decision 367).
  const current = store.get(sessionAtom);
  if (current.status === 'signedIn' && current.token === token && JSON.stringify(current.user) === stored) return;
  store.set(sessionAtom, { status: 'signedIn', token, user });
}

export function endSession(store: AppStore, reason: SignedOutReason): void {
  clearStorage();
  store.set(sessionAtom, { status: 'signedOut', reason });
}

function currentToken(store: AppStore): string | null {
  const session = store.get(sessionAtom);
  return session.status === 'signedOut' ? null : session.token;
}

/**
 * Rebuilds the user from the stored token (spec: on load). Offline, the cached user stays; a 401
 * ends the session through the client's middleware.
 */
export async function refreshSession(store: AppStore): Promise<void> {
  const token = currentToken(store);
  if (!token) return;
  try {
    const { data } = await api.GET('/auth');
    if (data && currentToken(store) === token) {
      const user = v.safeParse(sessionUserSchema, data);
      if (user.success) startSession(store, token, user.output);
      else endSession(store, 'unauthorized');
      return;
    }
  } catch {
    // No connection: keep the cached user.
  }
  if (store.get(sessionAtom).status === 'restoring') endSession(store, 'none');
}

/** Revokes the session on the server (best effort: offline it still ends here). */
export async function signOut(store: AppStore, reason: SignedOutReason = 'signedOut'): Promise<void> {
  const token = currentToken(store);
  endSession(store, reason);
  if (!token) return;
  try {
    await api.DELETE('/auth', { headers: { Authorization: `Bearer ${token}` } });
  } catch {
    // Offline: the server ends the session by itself after 30 h idle.
  }
}

/** A store whose session is read from storage, with the API client bound to it (app/store.ts). */
export function createSessionStore(): AppStore {
  const store = createStore();
  const stored = readStoredSession();
  store.set(sessionAtom, stored);
  // A session from before the worker kept its record, or a record lost with the site's storage.
  if (stored.status === 'signedIn') void rememberSignedInUser(stored.user.id);
  setAuthHandlers({
    token: () => currentToken(store),
    unauthorized: () => {
      if (currentToken(store)) endSession(store, 'unauthorized');
    },
  });
  return store;
}
