import { useCallback } from 'react';
import { useStore } from 'jotai';
import { hasUnsavedChanges, LEAVE_UNSAVED_MESSAGE } from '../../app/unsaved-changes';
import { useConfirm } from '../../ui/modal-store';
import { signOut } from './session';

/** 'sign out': asks first when a form holds unsaved changes; the guard then shows /sign-in. */
export function useSignOut(): () => Promise<void> {
  const store = useStore();
  const confirm = useConfirm();
  return useCallback(async () => {
    if (hasUnsavedChanges() && !(await confirm(LEAVE_UNSAVED_MESSAGE))) return;
    await signOut(store);
  }, [store, confirm]);
}
