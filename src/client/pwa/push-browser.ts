/**
 * This browser's side of web push: whether it can, the permission, and its subscription with the
 * push service (the server keeps the other side: the contract's push operations).
 */

/** Why this device cannot take notifications, or null when it can be asked. */
export type PushBlock = 'unsupported' | 'ios-not-installed' | 'denied';

export interface PushEnvironment {
  userAgent: string;
  /** The app runs from the home screen (display-mode standalone, or iOS's navigator.standalone). */
  standalone: boolean;
  hasServiceWorker: boolean;
  hasPushManager: boolean;
  hasNotification: boolean;
  permission: NotificationPermission | null;
}

/** iPhone and iPad, the iPad too when it calls itself a Mac (touch points give it away). */
export function isIos(userAgent: string, maxTouchPoints = 0): boolean {
  return /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
}

/**
 * Why notifications cannot be turned on here. iOS delivers web push only to an app added to the
 * home screen: in Safari's tab the push API is simply missing, so that case is told apart first.
 */
export function pushBlock(env: PushEnvironment, ios: boolean): PushBlock | null {
  if (ios && !env.standalone) return 'ios-not-installed';
  if (!env.hasServiceWorker || !env.hasPushManager || !env.hasNotification) return 'unsupported';
  if (env.permission === 'denied') return 'denied';
  return null;
}

export function readPushEnvironment(): PushEnvironment {
  const nav = typeof navigator === 'undefined' ? undefined : navigator;
  const standalone =
    (typeof window !== 'undefined' &&
      typeof window.matchMedia === 'function' &&
      window.matchMedia('(display-mode: standalone)').matches) ||
    (nav as (Navigator & { standalone?: boolean }) | undefined)?.standalone === true;
  const hasNotification = typeof Notification !== 'undefined';
  return {
    userAgent: nav?.userAgent ?? '',
    standalone,
    hasServiceWorker: Boolean(nav && 'serviceWorker' in nav),
    hasPushManager: typeof window !== 'undefined' && 'PushManager' in window,
    hasNotification,
    permission: hasNotification ? Notification.permission : null,
  };
}

/** The device's name in the person's list of devices: the browser and the system, e.g. "Chrome on Android". */
export function deviceLabel(userAgent: string, maxTouchPoints = 0): string {
  const browser = /Edg(?:e|A|iOS)?\//.test(userAgent)
    ? 'Edge'
    : /SamsungBrowser\//.test(userAgent)
      ? 'Samsung Internet'
      : /OPR\/|Opera/.test(userAgent)
        ? 'Opera'
        : /Firefox\/|FxiOS\//.test(userAgent)
          ? 'Firefox'
          : /Chrome\/|CriOS\/|Chromium\//.test(userAgent)
            ? 'Chrome'
            : /Safari\//.test(userAgent)
              ? 'Safari'
              : 'Browser';
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPad/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1)
      ? 'iPad'
      : /iPhone|iPod/.test(userAgent)
        ? 'iPhone'
        : /CrOS/.test(userAgent)
          ? 'ChromeOS'
          : /Windows/.test(userAgent)
            ? 'Windows'
            : /Macintosh|Mac OS X/.test(userAgent)
              ? 'Mac'
              : /Linux/.test(userAgent)
                ? 'Linux'
                : null;
  return system ? `${browser} on ${system}` : browser;
}

/** A VAPID public key (base64url, as the server serves it) as the bytes pushManager.subscribe takes. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** The subscription as the contract's subscribePush takes it. */
export interface SubscriptionKeys {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export function subscriptionKeys(subscription: PushSubscription): SubscriptionKeys | null {
  const json = subscription.toJSON();
  const p256dh = json.keys?.p256dh;
  const auth = json.keys?.auth;
  if (!json.endpoint || !p256dh || !auth) return null;
  return { endpoint: json.endpoint, keys: { p256dh, auth } };
}

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  // The worker registers after the page loads: wait for it rather than finding none.
  return navigator.serviceWorker.ready;
}

/** This browser's subscription, or null. */
export async function browserSubscription(): Promise<PushSubscription | null> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  const found = await navigator.serviceWorker.getRegistration();
  return (await found?.pushManager.getSubscription()) ?? null;
}

/**
 * Asks the browser's permission (once: a refusal is the browser's to undo) and subscribes with the
 * server's key. An earlier subscription made with another key is replaced.
 */
export async function subscribeBrowser(publicKey: string): Promise<PushSubscription | 'denied'> {
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  const found = await registration();
  if (!found) throw new Error('No service worker');
  const key = applicationServerKey(publicKey);
  const existing = await found.pushManager.getSubscription();
  if (existing) {
    const existingKey = existing.options.applicationServerKey;
    const same = existingKey && new Uint8Array(existingKey).every((byte, index) => byte === key[index]);
    if (same) return existing;
    await existing.unsubscribe();
  }
  return found.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
}

/** Ends this browser's subscription (best effort: nothing to end, or no worker, is fine). */
export async function unsubscribeBrowser(): Promise<void> {
  try {
    await (await browserSubscription())?.unsubscribe();
  } catch {
    // The push service forgets it by itself; the server stops on its first 404 or 410.
  }
}
