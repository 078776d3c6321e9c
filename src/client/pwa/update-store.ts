/**
 * Whether a new version of the portal is installed and waiting, and how to switch to it.
 * register.ts writes here when the service worker reports a waiting version; UpdatePrompt reads
 * it with useSyncExternalStore. A tiny store instead of an atom: it lives in the main chunk and
 * is written from outside React.
 */
export interface UpdateState {
  /** A new service worker is installed and waiting for the user's go-ahead. */
  available: boolean;
  /** Tells the waiting worker to take over; the page reloads once it controls the page. */
  apply: (() => void) | null;
}

const idle: UpdateState = { available: false, apply: null };
let state: UpdateState = idle;
const listeners = new Set<() => void>();

export function getUpdateState(): UpdateState {
  return state;
}

export function subscribeUpdate(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setUpdateAvailable(apply: () => void): void {
  state = { available: true, apply };
  listeners.forEach((listener) => listener());
}

/** For tests, and after the update has been applied. */
export function resetUpdateState(): void {
  state = idle;
  listeners.forEach((listener) => listener());
}
