/**
 * Which forms hold changes not yet saved (to the server or, for offline drafts, to IndexedDB).
 * The leave confirmation and the service-worker update prompt both ask here, so an update
 * never reloads the page under a user who is typing.
 */
const dirtyForms = new Set<string>();
const listeners = new Set<() => void>();

export function markUnsaved(formId: string, unsaved: boolean): void {
  const had = dirtyForms.has(formId);
  if (unsaved) dirtyForms.add(formId);
  else dirtyForms.delete(formId);
  if (had !== unsaved) listeners.forEach((listener) => listener());
}

export function hasUnsavedChanges(): boolean {
  return dirtyForms.size > 0;
}

/**
 * Forms whose leave question is armed (useLeaveConfirmation: the values differ from what was saved
 * to the server, kept on the device or not). An update accepted in another tab waits for none to be
 * left before it reloads this page, so the browser never asks the leave question for it (decision 343).
 */
const guardedForms = new Set<string>();

export function markLeaveGuard(formId: string, guarded: boolean): void {
  const had = guardedForms.has(formId);
  if (guarded) guardedForms.add(formId);
  else guardedForms.delete(formId);
  if (had !== guarded) listeners.forEach((listener) => listener());
}

export function hasLeaveGuard(): boolean {
  return guardedForms.size > 0;
}

let unloadAllowed = false;

/**
 * The page is about to reload for an update with nothing unsaved anywhere (drafts are on the
 * device): the leave question is not asked for it.
 */
export function allowUnload(): void {
  unloadAllowed = true;
}

export function isUnloadAllowed(): boolean {
  return unloadAllowed;
}

/** For useSyncExternalStore: re-render when the set of dirty forms changes. */
export function subscribeUnsavedChanges(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The spec's question before leaving (or signing out of) a form with unsaved changes, word for word. */
export const LEAVE_UNSAVED_MESSAGE = 'Changes will not be saved. Are you sure want exit?';
