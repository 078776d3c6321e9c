import { allowUnload, hasLeaveGuard, hasUnsavedChanges, subscribeUnsavedChanges } from '../ui/unsaved-changes';
import { setUpdateAvailable, setUpdateSwitched, wasAcceptedHere } from './update-store';

/** How often a long-open portal (a tablet left on all day) looks for a new version. */
const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Resolves when no form holds changes not yet on the device and, with `saved`, when no form holds
 * changes not yet saved (no leave question armed); at once if so already.
 */
function whenSettled(saved: boolean): Promise<void> {
  const settled = () => !hasUnsavedChanges() && !(saved && hasLeaveGuard());
  if (settled()) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = subscribeUnsavedChanges(() => {
      if (!settled()) return;
      unsubscribe();
      resolve();
    });
  });
}

/** What reloadOnUpdate needs of navigator.serviceWorker (a fake in tests). */
export interface ControllerSource extends EventTarget {
  readonly controller: unknown;
}

/**
 * Reloads the page when a new worker takes it over from an earlier one: the page's code and the
 * worker's cache no longer match. That happens after this tab's 'Update now' (accepted with nothing
 * unsaved: it reloads at once, without the leave question, the drafts being on the device), and
 * also when another tab accepted the update (the worker then takes every tab at once): this page
 * then waits until its forms are saved, so no leave question is ever raised by someone else's
 * update, and the prompt says so with 'Reload now' and 'Hide' (decision 343). The first worker
 * claiming a page that had none (a first visit) is no update: nothing reloads.
 * Returns the way to stop listening.
 */
export function reloadOnUpdate(container: ControllerSource, reload: () => void = () => window.location.reload()): () => void {
  let controlled = Boolean(container.controller);
  let reloading = false;
  const onControllerChange = () => {
    const wasControlled = controlled;
    controlled = Boolean(container.controller);
    if (!wasControlled || reloading) return;
    reloading = true;
    let gone = false;
    const go = () => {
      if (gone) return;
      gone = true;
      allowUnload();
      reload();
    };
    if (wasAcceptedHere()) {
      void whenSettled(false).then(go);
      return;
    }
    setUpdateSwitched(go);
    void whenSettled(true).then(go);
  };
  container.addEventListener('controllerchange', onControllerChange);
  return () => container.removeEventListener('controllerchange', onControllerChange);
}

/** What claimIfUncontrolled needs of navigator.serviceWorker (a fake in tests). */
export interface ClaimSource {
  readonly controller: unknown;
  readonly ready: Promise<{ active: { postMessage: (message: unknown) => void } | null }>;
}

/**
 * Once a worker is active, a page it does not control asks it to take the page (sw.ts: CLAIM). The
 * first worker claims the open pages as it activates, but a page whose navigation began before that
 * (a reload or a typed address during the first visit's install) is not among them: uncontrolled,
 * its later chunks would not come from the cache, and it would not open offline, until a reload.
 * No update is involved: the active worker is the one a new page would get.
 */
export async function claimIfUncontrolled(container: ClaimSource): Promise<void> {
  const registration = await container.ready;
  if (!container.controller) registration.active?.postMessage({ type: 'CLAIM' });
}

/**
 * Registers the service worker (built by vite-plugin-pwa from src/client/sw.ts to /sw.js as a
 * classic script) and reports a waiting new version to UpdatePrompt through update-store.
 * Does nothing in `vite` dev (no worker is built there) or where service workers are missing.
 */
export function registerServiceWorker(): void {
  if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
  // At once, not after the lazy import below: whether the page started controlled decides
  // whether a later change of worker is an update.
  reloadOnUpdate(navigator.serviceWorker);
  // workbox-window (about 2.5 KB gzipped) stays out of the entry chunk: registration waits for
  // the load event anyway, and the chunk is precached like the rest of the shell.
  void import('workbox-window')
    .then(({ Workbox }) => {
      const wb = new Workbox('/sw.js', { scope: '/', type: 'classic' });

      // A new version installed (by this tab or another one) and waits for the user's go-ahead.
      wb.addEventListener('waiting', () => {
        setUpdateAvailable(() => wb.messageSkipWaiting());
      });

      return wb.register().then((registration) => {
        if (!registration) return;
        void claimIfUncontrolled(navigator.serviceWorker);
        window.setInterval(() => {
          if (navigator.onLine) void registration.update().catch(() => undefined);
        }, UPDATE_CHECK_INTERVAL_MS);
      });
    })
    .catch((error: unknown) => {
      // The portal works without the worker (only not offline); say why in the console.
      console.warn('Service worker registration failed', error);
    });
}
