import { useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import { useStore } from 'jotai';
import { readStoredSession, refreshSession, sessionAtom, TOKEN_KEY } from '../session/session';
import { refreshBrand } from '../session/brand';
import { useFocusHeadingOnNavigation, useScrollToTopOnRouteChange } from '../routing/scroll';
import { Overlays } from '../ui/overlays';
import { UpdatePrompt } from '../pwa/update-prompt';
import { useNotificationLinks } from '../pwa/use-notification-links';

/**
 * Above every route: refreshes the session and brand settings when the app starts (and brand
 * again when the connection returns), follows sign-in and sign-out made in other tabs, and hosts
 * toasts, modals and the update prompt, and opens the page of a notification the person clicked.
 * After a route change it moves the focus to the new page's heading, on public and private pages alike.
 */
export function Root() {
  const store = useStore();
  useScrollToTopOnRouteChange();
  useFocusHeadingOnNavigation();
  useNotificationLinks();

  useEffect(() => {
    void refreshBrand(store);
    void refreshSession(store);
    const onOnline = () => void refreshBrand(store);
    const onStorage = (event: StorageEvent) => {
      if (event.key !== TOKEN_KEY && event.key !== null) return;
      const stored = readStoredSession();
      const current = store.get(sessionAtom);
      const currentToken = current.status === 'signedOut' ? null : current.token;
      const storedToken = stored.status === 'signedOut' ? null : stored.token;
      if (storedToken === currentToken) return;
      store.set(sessionAtom, stored.status === 'signedOut' ? { status: 'signedOut', reason: 'signedOut' } : stored);
      if (stored.status === 'restoring') void refreshSession(store);
    };
    window.addEventListener('online', onOnline);
    window.addEventListener('storage', onStorage);
    return () => {
      window.removeEventListener('online', onOnline);
      window.removeEventListener('storage', onStorage);
    };
  }, [store]);

  return (
    <>
      {/* In the flow above every page: it never covers a form's actions (decision 343). */}
      <UpdatePrompt />
      <Outlet />
      <Overlays />
    </>
  );
}
