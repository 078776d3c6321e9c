/// <reference lib="webworker" />
// The portal's service worker. It keeps the app shell (HTML, JS, CSS, icons, manifest) so the
// portal opens without a network, lets the user choose when a new version takes over, and shows
// the portal's push notifications.
// It never touches /api: the app keeps its own offline data (drafts, outbox, saved copies) in
// IndexedDB, and a stale API answer served from a cache would be worse than an honest failure.
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { requestClaim, takeClaimRequest } from './pwa/claim-request';
import { isForSignedInUser, notificationFor, openPortalAt, parsePushMessage } from './pwa/push-message';
import { signedInUser } from './pwa/signed-in-user';

declare const self: ServiceWorkerGlobalScope;

/** The message src/client/pwa/register.ts sends when the user accepts an update. */
const SKIP_WAITING = 'SKIP_WAITING';
/** The message a page this worker does not control sends (register.ts: claimIfUncontrolled). */
const CLAIM = 'CLAIM';

// Hashed assets and index.html, listed by vite-plugin-pwa at build time.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Any in-app URL (/applications/123, /sign-in, …) opens the precached shell; the client router
// takes it from there. The API, the server's development pages (/dev: mailbox) and files opened
// directly (/robots.txt, a document link) stay on the network.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api(?:\/|$)/, /^\/dev(?:\/|$)/, /^[^?]*\/[^/?]+\.[^/?]+(?:\?.*)?$/],
  }),
);

// When to take control of open pages:
// - first install: at once, so the very first visit is controlled and a reload without a
//   network still opens the shell;
// - an update: only when the user accepted it (SKIP_WAITING). Then the pages move to the new
//   worker and reload (register.ts); claiming also covers pages that were not controlled.
// An update that activates by itself (every tab closed) needs no claim: new pages are controlled.
// - a page the active worker does not control asks for it (CLAIM): a page whose navigation began
//   before the first worker activated is not among the pages its claim took, and would otherwise
//   stay uncontrolled, its later chunks not from the cache, until a reload.
// The decision is written to Cache Storage (claim-request.ts), not kept in a variable: the browser
// may stop the worker between install and activate, and the first visit would then stay unclaimed.

self.addEventListener('install', (event: ExtendableEvent) => {
  // No active worker in the registration while installing: this is the first install.
  if (!self.registration.active) event.waitUntil(requestClaim(self.caches));
});

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const data: unknown = event.data;
  const type = typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
  if (type === SKIP_WAITING) event.waitUntil(requestClaim(self.caches).then(() => self.skipWaiting()));
  // Only the active worker claims: a waiting one still needs the user's go-ahead.
  else if (type === CLAIM && self.registration.active === self.serviceWorker)
    event.waitUntil(self.clients.claim().catch(() => undefined));
});

// (workbox-core's clientsClaim() would claim on every activation, an unaccepted update's too.)
self.addEventListener('activate', (event: ExtendableEvent) => {
  event.waitUntil(takeClaimRequest(self.caches).then((claim) => (claim ? self.clients.claim() : undefined)));
});

// Background Sync, where the browser has it: when the connection returns, wake the open pages'
// sync engines (offline/sync-engine.ts). The pages hold the session and the queue; the worker only
// knocks. Never relied upon: the engines also push on 'online', on start and on a timer.
const BACKGROUND_SYNC_TAG = 'portal-outbox';
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}
self.addEventListener('sync', ((event: SyncEvent) => {
  if (event.tag !== BACKGROUND_SYNC_TAG) return;
  event.waitUntil(
    self.clients.matchAll({ type: 'window' }).then((pages) => pages.forEach((page) => page.postMessage({ type: 'portal:sync' }))),
  );
}) as EventListener);

/**
 * Keeps the worker alive for the work. An event the browser did not raise itself (a test
 * dispatching the click) cannot be extended: the work runs all the same.
 */
function keepAlive(event: ExtendableEvent, work: Promise<unknown>): void {
  try {
    event.waitUntil(work);
  } catch {
    void work;
  }
}

// A push message: shown only to the person signed in on this device (decision 685). A message
// for someone else, for a device signed out, or not the portal's, shows nothing.
self.addEventListener('push', (event: PushEvent) => {
  let raw: string | null;
  try {
    raw = event.data?.text() ?? null;
  } catch {
    raw = null;
  }
  const message = parsePushMessage(raw, self.location.origin);
  if (!message) return;
  keepAlive(
    event,
    signedInUser(self.caches).then((userId) => {
      if (!isForSignedInUser(message, userId)) return;
      const { title, options } = notificationFor(message);
      return self.registration.showNotification(title, options);
    }),
  );
});

// A click: the portal's open window comes forward at the linked page, or a window opens there.
self.addEventListener('notificationclick', (event: NotificationEvent) => {
  event.notification.close();
  const link = (event.notification.data as { link?: unknown } | null)?.link;
  keepAlive(event, openPortalAt(self.clients, link, self.location.origin));
});
