import { useLiveQuery } from 'dexie-react-hooks';
import type { DependencyList } from 'react';
import { hasIndexedDb } from './db';

/**
 * useLiveQuery that never throws into a render: without IndexedDB (some private modes, tests that
 * do not fake it) or with a failing store, the screen gets `fallback` instead of an error page.
 */
export function useSafeLiveQuery<T, F>(querier: () => Promise<T>, deps: DependencyList, fallback: F): T | F | undefined {
  return useLiveQuery(async () => {
    if (!hasIndexedDb()) return fallback;
    try {
      return await querier();
    } catch (error) {
      console.error('[offline] reading the device store failed', error);
      return fallback;
    }
  }, [...deps]);
}
