import { brandAtom, readCachedBrand } from '../session/brand';
import { createSessionStore, type AppStore } from '../session/session';

/** One jotai store per app (and per test): session and brand come from this device's storage. */
export function createAppStore(): AppStore {
  const store = createSessionStore();
  store.set(brandAtom, readCachedBrand());
  return store;
}
