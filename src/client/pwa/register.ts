import { hasUnsavedChanges, subscribeUnsavedChanges } from '../app/unsaved-changes';
import { resetUpdateState, setUpdateAvailable } from './update-store';

/** How often a long-open portal (a tablet left on all day) looks for a new version. */
const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

/** Resolves when no form holds unsaved changes (at once if none does). */
export function whenNothingUnsaved(): Promise<void> {
  if (!hasUnsavedChanges()) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = subscribeUnsavedChanges(() => {
      if (hasUnsavedChanges()) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * Registers the service worker (built by vite-plugin-pwa from src/client/sw.ts to /sw.js as a
 * classic script) and reports a waiting new version to UpdatePrompt through update-store.
 * Does nothing in `vite` dev (no worker is built there) or where service workers are missing.
 */
export function registerServiceWorker(): void {
  if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
  // workbox-window (about 2.5 KB gzipped) stays out of the entry chunk: registration waits for
  // the load event anyway, and the chunk is precached like the rest of the shell.
  void import('workbox-window').then(({ Workbox }) => {
    const wb = new Workbox('/sw.js', { scope: '/', type: 'classic' });

    // A new version installed (by this tab or another one) and waits for the user's go-ahead.
    wb.addEventListener('waiting', () => {
      setUpdateAvailable(() => wb.messageSkipWaiting());
    });

    // The new version took over. If the page was already running the previous version, its code
    // and the worker's cache no longer match: reload, but never under unsaved changes. On a first
    // visit (the worker claims the page right after installing) there is nothing to reload.
    wb.addEventListener('controlling', (event) => {
      if (!event.isUpdate) return;
      resetUpdateState();
      void whenNothingUnsaved().then(() => window.location.reload());
    });

    return wb.register().then((registration) => {
      if (!registration) return;
      window.setInterval(() => {
        if (navigator.onLine) void registration.update().catch(() => undefined);
      }, UPDATE_CHECK_INTERVAL_MS);
    });
  }).catch((error: unknown) => {
    // The portal works without the worker (only not offline); say why in the console.
    console.warn('Service worker registration failed', error);
  });
}
