import type { components } from '../../../shared/api/schema';
import type { NotificationKind } from '../../../shared/rules/notification-kinds';
import { api } from '../../api/client';
import { callApi, unwrap, type CallOutcome } from '../../api/failure';
import { deviceLabel, subscribeBrowser, subscriptionKeys, unsubscribeBrowser } from '../../pwa/push-browser';

/** The contract's push operations, as the Notifications page uses them. */

export type PushDevice = components['schemas']['PushSubscription'];

export async function loadDevices(): Promise<PushDevice[]> {
  return unwrap(await api.GET('/push/subscriptions')).items;
}

export async function loadKinds(): Promise<NotificationKind[]> {
  return unwrap(await api.GET('/push/preferences')).kinds;
}

export function saveKinds(kinds: NotificationKind[]): Promise<CallOutcome<{ kinds: NotificationKind[] }>> {
  return callApi(() => api.PUT('/push/preferences', { body: { kinds } }));
}

export function removeDevice(id: number): Promise<CallOutcome<undefined>> {
  return callApi(() => api.DELETE('/push/subscriptions/{id}', { params: { path: { id } } }));
}

export type TurnOnOutcome =
  | { ok: true }
  | { ok: false; denied: true }
  /**
   * 'unreachable': the browser could not subscribe (its push service did not answer, or it has
   * none); 'refused': the server does not send through that push service (decision 701).
   */
  | { ok: false; denied?: false; pushService: 'unreachable' | 'refused' }
  | ({ ok: false; denied?: false; pushService?: false } & Exclude<CallOutcome<unknown>, { ok: true }>);

/**
 * Turns notifications on for this device: the server's key, the browser's permission and
 * subscription, then the server keeps it for this user and session. `stale` is this session's row
 * whose subscription the browser no longer holds: it goes first, so the list never shows two.
 */
export async function turnOn(stale?: PushDevice): Promise<TurnOnOutcome> {
  const key = await callApi(() => api.GET('/push/public-key'));
  if (!key.ok) return key;
  let subscription: PushSubscription | 'denied';
  try {
    subscription = await subscribeBrowser(key.data.publicKey);
  } catch (error) {
    console.warn('Push subscription failed', error);
    return { ok: false, pushService: 'unreachable' };
  }
  if (subscription === 'denied') return { ok: false, denied: true };
  if (stale) await removeDevice(stale.id);
  const keys = subscriptionKeys(subscription);
  if (!keys) throw new Error('The browser gave a subscription without keys');
  const saved = await callApi(() =>
    api.POST('/push/subscriptions', {
      body: { ...keys, deviceLabel: deviceLabel(navigator.userAgent, navigator.maxTouchPoints) },
    }),
  );
  if (saved.ok) return { ok: true };
  if (saved.kind === 'http' && saved.status === 400 && saved.fields.endpoint) {
    // Of no use to the server, so the browser does not keep it either.
    await unsubscribeBrowser();
    if (saved.fields.endpoint === 'pushServiceUnknown') return { ok: false, pushService: 'refused' };
  }
  return saved;
}

/** Turns notifications off for this device: on the server first (it stops sending), then in the browser. */
export async function turnOff(device: PushDevice | undefined): Promise<CallOutcome<undefined>> {
  if (device) {
    const removed = await removeDevice(device.id);
    if (!removed.ok && removed.status !== 404) return removed;
  }
  await unsubscribeBrowser();
  return { ok: true, data: undefined };
}
