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
  /**
   * The new version already controls this page (accepted here or in another tab): the page
   * reloads as soon as no form holds unsaved changes, and cannot go back to the old version.
   */
  switched: boolean;
}

const idle: UpdateState = { available: false, apply: null, switched: false };
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
  state = { available: true, apply, switched: false };
  listeners.forEach((listener) => listener());
}

/** The new worker took over this page; register.ts reloads it once nothing is unsaved. */
export function setUpdateSwitched(): void {
  state = { available: true, apply: null, switched: true };
  listeners.forEach((listener) => listener());
}

/** For tests, and after the update has been applied. */
export function resetUpdateState(): void {
  state = idle;
  listeners.forEach((listener) => listener());
}
