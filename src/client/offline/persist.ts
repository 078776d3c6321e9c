import { pushToastAtom } from '../ui/toast-store';
import { boundSessionStore } from '../session/current-session';

/**
 * Persistent storage: asked for once, on the first draft (a browser may otherwise evict IndexedDB
 * under storage pressure, and drafts are the only copy of what was typed). The answer is not
 * needed: without it the drafts still work, they are just evictable.
 */
let asked: Promise<boolean> | null = null;

export function requestPersistentStorage(): Promise<boolean> {
  if (asked) return asked;
  const storage = globalThis.navigator?.storage;
  asked =
    storage && typeof storage.persist === 'function'
      ? storage
          .persisted()
          .then((already) => already || storage.persist())
          .catch(() => false)
      : Promise.resolve(false);
  return asked;
}

/** For tests: forget that persistence was asked for. */
export function resetPersistenceRequest(): void {
  asked = null;
}

const STORAGE_FULL_MESSAGE =
  'This device has run out of storage space, so your latest changes could not be kept on it. Free some space, or stay online so they can be sent.';
const STORAGE_FAILED_MESSAGE = 'Your latest changes could not be kept on this device. Stay online so they can be sent.';

/** One toast per this many ms at most: a failing store fails on every keystroke. */
const REPORT_INTERVAL_MS = 60_000;
let lastReport = 0;

function isQuotaError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth += 1) {
    const name = (current as { name?: unknown }).name;
    if (name === 'QuotaExceededError') return true;
    current = (current as { inner?: unknown }).inner;
  }
  return false;
}

/** A write to the device failed: the user is told (as a toast), at most once a minute. */
export function reportStorageError(error: unknown, now = Date.now()): void {
  console.error('[offline] storage error', error);
  if (now - lastReport < REPORT_INTERVAL_MS) return;
  lastReport = now;
  const store = boundSessionStore();
  store?.set(pushToastAtom, {
    type: 'error',
    message: isQuotaError(error) ? STORAGE_FULL_MESSAGE : STORAGE_FAILED_MESSAGE,
  });
}

export function resetStorageErrorReports(): void {
  lastReport = 0;
}
