import { useLiveQuery } from 'dexie-react-hooks';
import { useRef, type DependencyList } from 'react';
import { hasIndexedDb } from './db';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * Whether two answers of a query are the same: primitives, arrays and plain objects compared by
 * content; anything else (a Map, a file's bytes) only by identity.
 */
export function sameAnswer(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameAnswer(a[i], b[i])) return false;
    return true;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (const key of keys) if (!Object.prototype.hasOwnProperty.call(b, key) || !sameAnswer(a[key], b[key])) return false;
    return true;
  }
  return false;
}

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
