import { useLiveQuery } from 'dexie-react-hooks';
import { useRef, type DependencyList } from 'react';
import { hasIndexedDb } from './indexed-db';
import { sameAnswer } from './same-answer';

export { sameAnswer } from './same-answer';

/**
 * useLiveQuery that never throws into a render: without IndexedDB (some private modes, tests that
 * do not fake it) or with a failing store, the screen gets `fallback` instead of an error page.
 * A query woken by a write that did not change its answer hands back the answer it gave before
 * (the same object), so the screen does not render again (decision 385).
 */
export function useSafeLiveQuery<T, F>(querier: () => Promise<T>, deps: DependencyList, fallback: F): T | F | undefined {
  const last = useRef<{ answer: T | F } | null>(null);
  return useLiveQuery(async () => {
    let answer: T | F;
    if (!hasIndexedDb()) answer = fallback;
    else {
      try {
        answer = await querier();
      } catch (error) {
        console.error('[offline] reading the device store failed', error);
        answer = fallback;
      }
    }
    if (last.current && sameAnswer(last.current.answer, answer)) return last.current.answer;
    last.current = { answer };
    return answer;
  }, [...deps]);
}
