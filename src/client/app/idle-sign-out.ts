import { useEffect } from 'react';
import { useStore } from 'jotai';
import { isIdleExpired, lastActivity, recordActivity, signOut } from '../session/session';

/** Activity is written at most this often: mouse moves come by the hundred. */
const RECORD_EVERY_MS = 15_000;
/** How often the idle time is checked while the page is open. */
const CHECK_EVERY_MS = 60_000;
const ACTIVITY_EVENTS = ['mousemove', 'click', 'scroll', 'keydown'] as const;

/**
 * Signs out after SESSION_IDLE_TIMEOUT_MS (30 h) without a mouse move, click, scroll or key press
 * in any tab. Timestamps, not one long timer: a sleeping tab or device skips timers, so the time
 * is compared again on every check and whenever the page becomes visible.
 */
export function useIdleSignOut(): void {
  const store = useStore();
  useEffect(() => {
    let recordedAt = 0;
    const onActivity = () => {
      const now = Date.now();
      if (now - recordedAt < RECORD_EVERY_MS) return;
      recordedAt = now;
      // After a device sleep the first move must not revive a session that has already expired.
      if (check()) return;
      recordActivity(now);
    };
    function check(): boolean {
      if (!isIdleExpired()) return false;
      void signOut(store, 'expired');
      return true;
    }

    check();
    if (lastActivity() === null) onActivity();

    const options = { passive: true, capture: true } as const;
    for (const type of ACTIVITY_EVENTS) window.addEventListener(type, onActivity, options);
    const timer = window.setInterval(check, CHECK_EVERY_MS);
    document.addEventListener('visibilitychange', check);
    window.addEventListener('focus', check);
    return () => {
      for (const type of ACTIVITY_EVENTS) window.removeEventListener(type, onActivity, options);
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', check);
      window.removeEventListener('focus', check);
    };
  }, [store]);
}
