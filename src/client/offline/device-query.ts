import { useEffect, useState, type DependencyList } from 'react';
import { hasIndexedDb } from './indexed-db';
import { afterStore, loadStore } from './load-store';
import { sameAnswer } from './same-answer';

/**
 * A live read of the device's store whose code (Dexie and the module that reads) is loaded when the
 * screen has mounted, not with it, so the screen's first paint does not wait for them
 * (docs/decisions.md (630)); the module that reads comes a task after the store (load-store.ts).
 * Until the first answer, and without IndexedDB or when a read fails, it gives `fallback`. It
 * follows the store in every tab as useSafeLiveQuery does; an answer the same as the one shown (the
 * fallback included) keeps it, so the screen renders only for a real change.
 */
export function useDeviceQuery<M, T>(
  load: () => Promise<M>,
  read: (module: M) => Promise<T>,
  deps: DependencyList,
  fallback: T,
): T {
  const [answer, setAnswer] = useState<T>(fallback);
  useEffect(() => {
    if (!hasIndexedDb()) return undefined;
    let active = true;
    let unsubscribe = () => undefined as void;
    const keep = (next: T) => setAnswer((shown) => (sameAnswer(shown, next) ? shown : next));
    void Promise.all([loadStore(), afterStore(load)]).then(
      ([{ liveQuery }, module]) => {
        if (!active) return;
        const subscription = liveQuery(async () => {
          try {
            return await read(module);
          } catch (error) {
            console.error('[offline] reading the device store failed', error);
            return fallback;
          }
        }).subscribe({ next: keep, error: () => keep(fallback) });
        unsubscribe = () => subscription.unsubscribe();
      },
      (error: unknown) => console.error('[offline] the device store could not be loaded', error),
    );
    return () => {
      active = false;
      unsubscribe();
    };
    // The caller's deps say when the read changes, as for useEffect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return answer;
}
