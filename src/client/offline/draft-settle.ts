import { useCallback, useEffect, useRef, useState } from 'react';
import type { UseDraft } from './drafts';

/** How long typing must pause before the unsaved mark is lifted (the draft is written by then). */
const DRAFT_SETTLE_MS = 400;

/**
 * The unsaved mark of a form kept as a draft: set at each change, lifted once typing has paused
 * ~0.4 s and the draft's write (or, for a form typed back to its record, its removal) is done. The
 * update prompt and sign-out wait while it is set. Used by useDraftForm and useKeptRecordForm.
 */
export function useDraftSettle<V>(draft: UseDraft<V>) {
  const [pending, setPending] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const draftRef = useRef(draft);
  draftRef.current = draft;
  useEffect(() => () => clearTimeout(timer.current), []);

  /** A change was made: `settle` runs once typing pauses (by default, the pending write is written). */
  const changed = useCallback((settle: (draft: UseDraft<V>) => Promise<void> = (current) => current.flush()) => {
    setPending(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      void settle(draftRef.current).finally(() => setPending(false));
    }, DRAFT_SETTLE_MS);
  }, []);

  /** Nothing is left to settle (the draft was let go). */
  const stop = useCallback(() => {
    clearTimeout(timer.current);
    setPending(false);
  }, []);

  return { pending, changed, stop };
}
