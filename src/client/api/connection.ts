import { useSyncExternalStore } from 'react';
import { setCallReporter } from './client';

/**
 * The client's one word on the connection (decision 401). The browser's `navigator.onLine` is
 * believed only when it says offline: on Wi-Fi without internet it stays true. So a request that
 * got no answer (every API call reports here, see client.ts) or a failed probe of the server makes
 * the device count as offline, and the next answer of any request makes it online again. While it
 * is offline the server is probed with backoff, so the connection comes back by itself; the
 * browser's `online` event and the page becoming visible probe at once.
 */

/** The first probe after a request went unanswered, doubled after each failed one, up to the cap. */
export const PROBE_BASE_MS = 2_000;
export const PROBE_MAX_MS = 30_000;
/** A probe unanswered for this long has failed. */
export const PROBE_TIMEOUT_MS = 10_000;

const listeners = new Set<() => void>();
const reconnectListeners = new Set<() => void>();

let unreachable = false;
let probeTimer: ReturnType<typeof setTimeout> | null = null;
let probeFailures = 0;
let probing: Promise<void> | null = null;
/** What the listeners were last told, to find the moment the device comes back. */
let lastOnline: boolean | null = null;
let browserEvents: (() => void) | null = null;

function browserSaysOffline(): boolean {
  return globalThis.navigator?.onLine === false;
}

/** Whether the device counts as online now. */
export function isOnline(): boolean {
  return !browserSaysOffline() && !unreachable;
}

function changed(): void {
  const online = isOnline();
  const before = lastOnline;
  lastOnline = online;
  if (before === online) return;
  listeners.forEach((listener) => listener());
  if (before === false && online) reconnectListeners.forEach((listener) => listener());
}

/** Delay of the probe after `failures` failed ones: exponential, capped, with a quarter of it random. */
export function probeDelay(failures: number, random = Math.random()): number {
  const ceiling = Math.min(PROBE_MAX_MS, PROBE_BASE_MS * 2 ** failures);
  return Math.round(ceiling * 0.75 + ceiling * 0.25 * random);
}

function scheduleProbe(delayMs = probeDelay(probeFailures)): void {
  if (probeTimer) clearTimeout(probeTimer);
  probeTimer = null;
  // The browser knows it has no network: its `online` event probes when it comes back. With no
  // screen following the connection (tests of a lone module), nothing is probed either.
  if (!unreachable || browserSaysOffline() || (listeners.size === 0 && reconnectListeners.size === 0)) return;
  probeTimer = setTimeout(() => {
    probeTimer = null;
    void probeNow();
  }, delayMs);
}

/**
 * Asks the server once (the public brand settings: small, never cached) whether it can be reached.
 * Any answer counts, whatever its status: the server was reached.
 */
export function probeNow(): Promise<void> {
  probing ??= (async () => {
    const controller = typeof AbortController === 'function' ? new AbortController() : null;
    const timeout = setTimeout(() => controller?.abort(), PROBE_TIMEOUT_MS);
    try {
      const url = new URL('/api/config', globalThis.location?.origin ?? 'http://localhost').href;
      await globalThis.fetch(url, { cache: 'no-store', ...(controller ? { signal: controller.signal } : {}) });
      reportAnswered();
    } catch {
      probeFailures += 1;
      reportUnanswered();
    } finally {
      clearTimeout(timeout);
      probing = null;
    }
  })();
  return probing;
}

/** A request got an answer from the server (any status): the device is online. */
export function reportAnswered(): void {
  probeFailures = 0;
  if (probeTimer) clearTimeout(probeTimer);
  probeTimer = null;
  unreachable = false;
  changed();
}

/** A request got no answer at all (no network, the server unreachable): offline until one does. */
export function reportUnanswered(): void {
  unreachable = true;
  changed();
  if (!probeTimer && !probing) scheduleProbe();
  else if (!probeTimer && probing) void probing.then(() => (unreachable && !probeTimer ? scheduleProbe() : undefined));
}

function startBrowserEvents(): void {
  if (browserEvents || typeof globalThis.addEventListener !== 'function') return;
  const onOnline = () => {
    changed();
    // The browser's word that a network is back is checked with the server.
    if (unreachable) void probeNow();
  };
  const onOffline = () => changed();
  const onVisible = () => {
    if (globalThis.document?.visibilityState === 'visible' && unreachable && !browserSaysOffline()) void probeNow();
  };
  globalThis.addEventListener('online', onOnline);
  globalThis.addEventListener('offline', onOffline);
  globalThis.document?.addEventListener('visibilitychange', onVisible);
  browserEvents = () => {
    globalThis.removeEventListener('online', onOnline);
    globalThis.removeEventListener('offline', onOffline);
    globalThis.document?.removeEventListener('visibilitychange', onVisible);
  };
}

function stopBrowserEventsWhenUnused(): void {
  if (listeners.size > 0 || reconnectListeners.size > 0) return;
  browserEvents?.();
  browserEvents = null;
}

// Every API call reports here from now on (the private screens load this module with the shell).
setCallReporter({ answered: reportAnswered, unanswered: reportUnanswered });

/** Calls `listener` whenever the device goes offline or comes back. */
export function subscribeConnection(listener: () => void): () => void {
  if (lastOnline === null) lastOnline = isOnline();
  listeners.add(listener);
  startBrowserEvents();
  return () => {
    listeners.delete(listener);
    stopBrowserEventsWhenUnused();
  };
}

/** Calls `listener` each time the device comes back online (after a failed request, a probe or the browser's word). */
export function subscribeReconnected(listener: () => void): () => void {
  if (lastOnline === null) lastOnline = isOnline();
  reconnectListeners.add(listener);
  startBrowserEvents();
  return () => {
    reconnectListeners.delete(listener);
    stopBrowserEventsWhenUnused();
  };
}

/** Whether the device counts as online, as it changes: the shell's header and every page read this. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribeConnection, isOnline, () => true);
}

/** For tests: forget every failure and probe. */
export function resetConnectionForTests(): void {
  if (probeTimer) clearTimeout(probeTimer);
  probeTimer = null;
  probeFailures = 0;
  probing = null;
  unreachable = false;
  lastOnline = null;
}
