/**
 * Whether the service worker should take control of open pages when it activates, kept in Cache
 * Storage rather than in the worker's memory: the browser may stop an idle worker between install
 * and activate (or between the user's go-ahead and activate), and a variable would be lost then.
 * Used by src/client/sw.ts; plain functions over CacheStorage so they can be tested without a worker.
 */

/** A cache of its own: workbox's cleanupOutdatedCaches only removes old precaches. */
export const CLAIM_CACHE = 'portal-sw-state';
/** A same-origin URL nothing else uses; only its presence matters. */
const CLAIM_KEY = '/__portal-sw/claim-on-activate';

/** Remembers that the worker about to activate should claim the open pages. */
export async function requestClaim(caches: CacheStorage): Promise<void> {
  const cache = await caches.open(CLAIM_CACHE);
  await cache.put(CLAIM_KEY, new Response('1'));
}

/** Whether a claim was requested; the request is used up, so a later activation starts clean. */
export async function takeClaimRequest(caches: CacheStorage): Promise<boolean> {
  if (!(await caches.has(CLAIM_CACHE))) return false;
  const cache = await caches.open(CLAIM_CACHE);
  const requested = (await cache.match(CLAIM_KEY)) !== undefined;
  await cache.delete(CLAIM_KEY);
  return requested;
}
