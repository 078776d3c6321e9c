import { CLAIM_CACHE } from './claim-request';

/**
 * Who is signed in on this device, kept where the service worker can read it: it has no access to
 * localStorage, where the session lives. The app writes it at sign-in and removes it at sign-out
 * (and when a session expires); a push message for anyone else is dropped (docs/decisions.md (685)).
 * Only the user's id: nothing a reader of the device's storage could not already see in the session.
 */

/** A same-origin URL nothing else uses, in the worker's own state cache. */
const SIGNED_IN_KEY = '/__portal-sw/signed-in-user';

function cacheStorage(): CacheStorage | null {
  return typeof caches === 'undefined' ? null : caches;
}

/** Writes run one after another: a sign-out followed at once by a sign-in ends with the sign-in. */
let pending: Promise<void> = Promise.resolve();

function enqueue(write: (storage: CacheStorage) => Promise<unknown>, storage = cacheStorage()): Promise<void> {
  if (!storage) return Promise.resolve();
  pending = pending
    .then(() => write(storage))
    .then(
      () => undefined,
      // Storage refused (private mode, full): the worker then shows nothing, which is the safe side.
      () => undefined,
    );
  return pending;
}

export function rememberSignedInUser(userId: number, storage = cacheStorage()): Promise<void> {
  return enqueue(async (store) => {
    const cache = await store.open(CLAIM_CACHE);
    await cache.put(SIGNED_IN_KEY, new Response(String(userId)));
  }, storage);
}

export function forgetSignedInUser(storage = cacheStorage()): Promise<void> {
  return enqueue(async (store) => {
    if (!(await store.has(CLAIM_CACHE))) return;
    const cache = await store.open(CLAIM_CACHE);
    await cache.delete(SIGNED_IN_KEY);
  }, storage);
}

/** The signed-in user's id, or null when nobody is signed in on this device (or it cannot be read). */
export async function signedInUser(storage: CacheStorage): Promise<number | null> {
  try {
    if (!(await storage.has(CLAIM_CACHE))) return null;
    const cache = await storage.open(CLAIM_CACHE);
    const stored = await cache.match(SIGNED_IN_KEY);
    if (!stored) return null;
    const id = Number(await stored.text());
    return Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}
