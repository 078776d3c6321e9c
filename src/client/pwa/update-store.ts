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
  /**
   * Once switched: reloads now (offered while nothing is unsaved on the device; the step forms'
   * drafts come back after the reload). Null otherwise.
   */
  reloadNow: (() => void) | null;
}

const idle: UpdateState = { available: false, apply: null, switched: false, reloadNow: null };
/** This tab's user accepted the update (its reload then waits for nothing but unsaved typing). */
let acceptedHere = false;
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
  state = { available: true, apply, switched: false, reloadNow: null };
  listeners.forEach((listener) => listener());
}

/** The new worker took over this page; register.ts reloads it once every form is saved. */
export function setUpdateSwitched(reloadNow: (() => void) | null = null): void {
  state = { available: true, apply: null, switched: true, reloadNow };
  listeners.forEach((listener) => listener());
}

/** The prompt's 'Update now' went ahead in this tab. */
export function markAcceptedHere(): void {
  acceptedHere = true;
}

export function wasAcceptedHere(): boolean {
  return acceptedHere;
}

/** For tests, and after the update has been applied. */
export function resetUpdateState(): void {
  state = idle;
  acceptedHere = false;
  listeners.forEach((listener) => listener());
}
