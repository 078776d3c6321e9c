import { describe, expect, it } from 'vitest';
import { fakeCaches } from '../test/fake-caches';
import { forgetSignedInUser, rememberSignedInUser, signedInUser } from './signed-in-user';

describe('the signed-in user the service worker reads', () => {
  it('is nobody until someone signs in', async () => {
    expect(await signedInUser(fakeCaches())).toBeNull();
  });

  it('is the user written at sign-in, and nobody after sign-out', async () => {
    const caches = fakeCaches();
    await rememberSignedInUser(5, caches);
    expect(await signedInUser(caches)).toBe(5);
    await forgetSignedInUser(caches);
    expect(await signedInUser(caches)).toBeNull();
  });

  it('ends with the last of writes made one right after another', async () => {
    const caches = fakeCaches();
    void rememberSignedInUser(5, caches);
    void forgetSignedInUser(caches);
    await rememberSignedInUser(6, caches);
    expect(await signedInUser(caches)).toBe(6);
  });

  it('is nobody when the storage cannot be read', async () => {
    const broken = { has: async () => Promise.reject(new Error('denied')) } as unknown as CacheStorage;
    expect(await signedInUser(broken)).toBeNull();
    await expect(rememberSignedInUser(5, broken)).resolves.toBeUndefined();
  });
});
