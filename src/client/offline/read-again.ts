import { isOnline, subscribeReconnected } from '../api/connection';

/**
 * When what is on screen is read again from the server, besides the user's own writes being
 * answered (cache.ts): records and lists follow what other people do (decision 402). One clock for
 * every screen's reads: every FOLLOW_INTERVAL_MS while the page is visible and the device online,
 * at once when the page becomes visible again or its window gets the focus, and when the device
 * comes back online.
 */

/** How often a visible page reads its records and lists again. */
export const FOLLOW_INTERVAL_MS = 30_000;
/** The page's focus and visibility events come in pairs: they read again once. */
const FOCUS_GAP_MS = 1_000;

const listeners = new Set<() => void>();
let stop: (() => void) | null = null;

function visible(): boolean {
  return globalThis.document?.visibilityState !== 'hidden';
}

function emit(): void {
  listeners.forEach((listener) => listener());
}

function start(): () => void {
  let lastFocus = 0;
  const onFocus = () => {
    if (!visible()) return;
    const now = Date.now();
    if (now - lastFocus < FOCUS_GAP_MS) return;
    lastFocus = now;
    emit();
  };
  const timer = setInterval(() => {
    // A hidden page reads nothing (it reads again when it is seen); offline, the probe of the
    // connection finds when it comes back, and that reads again.
    if (visible() && isOnline()) emit();
  }, FOLLOW_INTERVAL_MS);
  const stopReconnected = subscribeReconnected(emit);
  globalThis.addEventListener?.('focus', onFocus);
  globalThis.document?.addEventListener('visibilitychange', onFocus);
  return () => {
    clearInterval(timer);
    stopReconnected();
    globalThis.removeEventListener?.('focus', onFocus);
    globalThis.document?.removeEventListener('visibilitychange', onFocus);
  };
}

/** Calls `listener` each time the screens' reads should ask the server again. */
export function subscribeReadAgain(listener: () => void): () => void {
  listeners.add(listener);
  stop ??= start();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      stop?.();
      stop = null;
    }
  };
}
