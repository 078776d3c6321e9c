import { describe, expect, it } from 'vitest';
import { CLAIM_CACHE, requestClaim, takeClaimRequest } from './claim-request';

/** Cache Storage as the worker sees it: survives the worker being stopped (unlike its variables). */
function fakeCaches(): CacheStorage {
  const stores = new Map<string, Map<string, Response>>();
  const cacheFor = (name: string) => {
    let store = stores.get(name);
    if (!store) stores.set(name, (store = new Map()));
    const key = (request: RequestInfo | URL) => (typeof request === 'string' ? request : request.toString());
    return {
      put: async (request: RequestInfo | URL, response: Response) => void store.set(key(request), response),
      match: async (request: RequestInfo | URL) => store.get(key(request)),
      delete: async (request: RequestInfo | URL) => store.delete(key(request)),
    } as unknown as Cache;
  };
  return {
    open: async (name: string) => cacheFor(name),
    has: async (name: string) => stores.has(name),
  } as unknown as CacheStorage;
}

describe('the service worker’s claim decision', () => {
  it('is false when nothing asked for a claim (an update activating by itself)', async () => {
    const caches = fakeCaches();
    expect(await takeClaimRequest(caches)).toBe(false);
    expect(await caches.has(CLAIM_CACHE)).toBe(false);
  });

  it('survives until activation and is used up by it', async () => {
    const caches = fakeCaches();
    // install (first install) or SKIP_WAITING (accepted update) writes it …
    await requestClaim(caches);
    // … the worker may be stopped here: nothing in memory is needed …
    expect(await takeClaimRequest(caches)).toBe(true);
    // … and the next activation (a later update nobody accepted) does not claim.
    expect(await takeClaimRequest(caches)).toBe(false);
  });
});
