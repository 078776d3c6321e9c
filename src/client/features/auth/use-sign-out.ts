import { useCallback } from 'react';
import { useStore } from 'jotai';
import { hasUnsavedChanges, LEAVE_UNSAVED_MESSAGE } from '../../ui/unsaved-changes';
import { useConfirm } from '../../ui/modal-store';
import { sessionAtom, signOut } from '../../session/session';

/** Asked before signing out while writes of this user are still on the device only. */
export const SIGN_OUT_UNSENT_MESSAGE =
  'You have changes that have not been sent yet. If you sign out now they stay on this device and are sent when you sign in again. Sign out?';

/** Writes not yet sent (and refused drafts); the offline layer loads only when asked. */
async function unsentChanges(userId: number): Promise<number> {
  try {
    const { hasIndexedDb } = await import('../../offline/db');
    if (!hasIndexedDb()) return 0;
    const { countUnsent } = await import('../../offline/outbox');
    return await countUnsent(userId);
  } catch {
    return 0;
  }
}

/**
 * 'sign out': asks first when a form holds unsaved changes, or when changes are still waiting on
 * this device to be sent; the guard then shows /sign-in.
 */
export function useSignOut(): () => Promise<void> {
  const store = useStore();
  const confirm = useConfirm();
  return useCallback(async () => {
    if (hasUnsavedChanges() && !(await confirm(LEAVE_UNSAVED_MESSAGE))) return;
    const session = store.get(sessionAtom);
    if (session.status === 'signedIn' && (await unsentChanges(session.user.id)) > 0) {
      if (!(await confirm({ title: 'Changes not sent yet', message: SIGN_OUT_UNSENT_MESSAGE }))) return;
    }
    await signOut(store);
  }, [store, confirm]);
}
