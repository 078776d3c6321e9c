import { isNotificationKind, type NotificationKind } from '../../shared/rules/notification-kinds';
import { isSitePath } from '../routing/site-path';

/**
 * What the service worker does with a push message, as plain functions it and the tests share
 * (src/client/sw.ts holds only the event wiring). The server sends
 * `{ title, body, link, kind, userId }` (JSON, encrypted on the way).
 */
export interface PushMessage {
  title: string;
  body: string;
  /** A path of the portal: where the person acts. */
  link: string;
  kind: NotificationKind;
  userId: number;
}

/** The manifest's 192 px icon: the one every platform shows beside a notification. */
export const NOTIFICATION_ICON = '/icons/icon-192.png';

/** Paths of this origin that are no page of the portal: the API and the server's development pages. */
const NOT_A_PAGE = /^\/(?:api|dev)(?:[/?#]|$)/;

/**
 * The portal page a link points to, or null when it is none: only a path of this origin that the
 * app renders is followed (a message can never send the person to another site or to the API).
 */
export function portalPath(link: unknown, origin: string): string | null {
  if (typeof link !== 'string' || !isSitePath(link)) return null;
  let url: URL;
  try {
    url = new URL(link, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || NOT_A_PAGE.test(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/**
 * The message in a push's text, or null when it is not one of the portal's (not JSON, a field
 * missing or of the wrong type, a kind it does not know, a link that is no portal page).
 */
export function parsePushMessage(raw: string | null | undefined, origin: string): PushMessage | null {
  if (!raw) return null;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const fields = data as Record<string, unknown>;
  const title = text(fields.title);
  const body = text(fields.body);
  const kind = isNotificationKind(fields.kind) ? fields.kind : null;
  const link = portalPath(fields.link, origin);
  const userId = fields.userId;
  if (!title || !body || !kind || !link || typeof userId !== 'number' || !Number.isInteger(userId)) return null;
  return { title, body, link, kind, userId };
}

/** What a shown notification carries for its click. */
export interface NotificationData {
  link: string;
  kind: NotificationKind;
  userId: number;
}

/**
 * The notification for a message. Its tag is the kind and the page: a reminder of the same thing
 * replaces the earlier notice instead of stacking beside it, and `renotify` still makes it heard
 * (docs/decisions.md (686)).
 */
export function notificationFor(message: PushMessage): { title: string; options: NotificationOptions & { renotify: boolean } } {
  const data: NotificationData = { link: message.link, kind: message.kind, userId: message.userId };
  return {
    title: message.title,
    options: {
      body: message.body,
      icon: NOTIFICATION_ICON,
      tag: `${message.kind}:${message.link}`,
      renotify: true,
      data,
    },
  };
}

/**
 * Whether a message is for the person signed in on this device: a device nobody is signed in on,
 * or someone else is, shows nothing (docs/decisions.md (685)).
 */
export function isForSignedInUser(message: PushMessage, signedInUserId: number | null): boolean {
  return signedInUserId !== null && message.userId === signedInUserId;
}

/** The message a page of the portal receives to open a notification's page in place. */
export const OPEN_MESSAGE = 'portal:open';

export interface OpenMessage {
  type: typeof OPEN_MESSAGE;
  path: string;
}

export function isOpenMessage(data: unknown): data is OpenMessage {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { type?: unknown }).type === OPEN_MESSAGE &&
    typeof (data as { path?: unknown }).path === 'string'
  );
}

/** The parts of a window the worker uses (WindowClient; a fake in tests). */
export interface PortalWindow {
  readonly url: string;
  readonly focused: boolean;
  readonly visibilityState: DocumentVisibilityState;
  focus(): Promise<unknown>;
  postMessage(message: OpenMessage): void;
}

export interface PortalWindows {
  matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<readonly PortalWindow[]>;
  openWindow(url: string): Promise<unknown>;
}

/** The window to bring forward: the focused one, else a visible one, else the first. */
function bestWindow(windows: readonly PortalWindow[]): PortalWindow | undefined {
  return windows.find((window) => window.focused) ?? windows.find((window) => window.visibilityState === 'visible') ?? windows[0];
}

/**
 * A notification's click: an open window of the portal comes forward and its router opens the
 * page (no reload, so a form's leave question still applies); with none open, a new window opens
 * at the page. A link that is no portal page does nothing.
 */
export async function openPortalAt(windows: PortalWindows, link: unknown, origin: string): Promise<void> {
  const path = portalPath(link, origin);
  if (!path) return;
  const open = (await windows.matchAll({ type: 'window', includeUncontrolled: true })).filter(
    (window) => new URL(window.url).origin === origin,
  );
  const target = bestWindow(open);
  if (!target) {
    await windows.openWindow(path);
    return;
  }
  // Focusing is allowed only while handling the click; the page opens the link either way.
  await target.focus().catch(() => undefined);
  target.postMessage({ type: OPEN_MESSAGE, path });
}
