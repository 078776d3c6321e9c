import { useCallback, useEffect, useId, useLayoutEffect, useRef } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router-dom';
import { useConfirm } from '../ui/modal-store';
import { isUnloadAllowed, LEAVE_UNSAVED_MESSAGE, markLeaveGuard } from '../ui/unsaved-changes';

/**
 * The spec's leave confirmation for edit forms: while the form is dirty and nothing is being saved,
 * leaving the page asks 'Changes will not be saved. Are you sure want exit?' ('Yes' leaves, 'No'
 * stays). In-app navigation (links, back and forward) is held by react-router's blocker; closing
 * the tab or reloading gets the browser's own question (browsers show their own words there).
 *
 * Called once by an edit page, with its form's state: `useLeaveConfirmation(form.dirty, busy)`; a
 * form kept as a draft passes `{ keptOnDevice }` (its draft is written), so a reload does not ask,
 * and `onLeave` when 'Yes' lets its kept typing go (the administration's forms, decision 726).
 * A session that ends (sign-out, which asks first in features/auth/use-sign-out.ts; idle time; a
 * refused token) is not held either: RequireAuth unmounts the page, and its blocker with it, before
 * it redirects to /sign-in. A form's own way out that has asked its own question (a cancel's
 * discard) calls `leaveWithoutAsking()` first, so it is not asked twice.
 */
export function useLeaveConfirmation(
  dirty: boolean,
  saving: boolean,
  {
    keptOnDevice = false,
    onLeave,
  }: {
    keptOnDevice?: boolean;
    /** 'Yes' to leaving: what the page lets go of first (a form's typing kept on the device). */
    onLeave?: () => unknown;
  } = {},
): { leaveWithoutAsking: () => void } {
  const confirm = useConfirm();
  const ask = dirty && !saving;
  // A form kept as a draft on the device loses nothing to a reload or a closed tab once the draft
  // is written: the browser's question is asked only while it is not (decision 338).
  const askOnUnload = ask && !keptOnDevice;

  // The blocker reads the latest state when a navigation starts, which may be before a re-render.
  const askRef = useRef(ask);
  useLayoutEffect(() => {
    askRef.current = ask;
  }, [ask]);

  /** The page is being left by the form's own way out, which asked already. */
  const passing = useRef(false);
  // Only a change of page: a query or hash change on the same page keeps the form on screen.
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      !passing.current && askRef.current && currentLocation.pathname !== nextLocation.pathname,
    [],
  );
  const blocker = useBlocker(shouldBlock);
  const blockerRef = useRef(blocker);
  const onLeaveRef = useRef(onLeave);
  useLayoutEffect(() => {
    blockerRef.current = blocker;
    onLeaveRef.current = onLeave;
  }, [blocker, onLeave]);

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void confirm(LEAVE_UNSAVED_MESSAGE).then((leave) => {
      const latest = blockerRef.current;
      if (latest.state !== 'blocked') return;
      if (leave) {
        void Promise.resolve(onLeaveRef.current?.()).finally(() => latest.proceed());
      } else latest.reset();
    });
    // Once per blocked navigation: the blocker object changes identity, its state does not.
  }, [blocker.state, confirm]);

  // An update accepted in another tab waits while any leave question is armed (decision 343).
  const id = useId();
  useEffect(() => {
    markLeaveGuard(id, ask);
  }, [id, ask]);
  useEffect(() => () => markLeaveGuard(id, false), [id]);

  useEffect(() => {
    if (!askOnUnload) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      // The update's own reload, with everything kept on the device: nothing to ask.
      if (isUnloadAllowed()) return;
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [askOnUnload]);

  const leaveWithoutAsking = useCallback(() => {
    passing.current = true;
  }, []);
  return { leaveWithoutAsking };
}
