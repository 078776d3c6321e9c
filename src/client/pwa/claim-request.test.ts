import { describe, expect, it } from 'vitest';
import { fakeCaches } from '../test/fake-caches';
import { CLAIM_CACHE, requestClaim, takeClaimRequest } from './claim-request';

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
