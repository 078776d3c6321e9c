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
  { ok: true } | { ok: false; denied: true } | ({ ok: false; denied?: false } & Exclude<CallOutcome<unknown>, { ok: true }>);

/**
 * Turns notifications on for this device: the server's key, the browser's permission and
 * subscription, then the server keeps it for this user and session.
 */
export async function turnOn(): Promise<TurnOnOutcome> {
  const key = await callApi(() => api.GET('/push/public-key'));
  if (!key.ok) return key;
  const subscription = await subscribeBrowser(key.data.publicKey);
  if (subscription === 'denied') return { ok: false, denied: true };
  const keys = subscriptionKeys(subscription);
  if (!keys) throw new Error('The browser gave a subscription without keys');
  const saved = await callApi(() =>
    api.POST('/push/subscriptions', {
      body: { ...keys, deviceLabel: deviceLabel(navigator.userAgent, navigator.maxTouchPoints) },
    }),
  );
  return saved.ok ? { ok: true } : saved;
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
