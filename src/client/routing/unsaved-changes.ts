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

/** For useSyncExternalStore: re-render when the set of dirty forms changes. */
export function subscribeUnsavedChanges(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The spec's question before leaving (or signing out of) a form with unsaved changes, word for word. */
export const LEAVE_UNSAVED_MESSAGE = 'Changes will not be saved. Are you sure want exit?';
