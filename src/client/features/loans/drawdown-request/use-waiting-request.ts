import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import type { UseDraft } from '../../../offline/drafts';
import { useSafeLiveQuery } from '../../../offline/live';
import { paths } from '../../../routing/paths';
import type { RequestTarget } from './request-target';
import type { RequestValues } from './request-values';

/**
 * The write of this form still in the outbox (its amount), shown instead of the form until it is
 * sent (undefined while it is read). When it goes (sent from the outbox after reconnecting) the
 * engine has cleared its draft: a change opens its drawdown, a new request calls `onSent` (the form
 * starts again empty and says so). A refusal instead brings the draft back (use-request-form.ts).
 */
export function useWaitingRequest(
  target: RequestTarget,
  userId: number | null,
  draft: UseDraft<RequestValues>,
  onSent: () => void,
  /** Set once the drawdown was opened after a save, here or by the form's submit: it is opened once. */
  opened: { current: boolean },
) {
  const navigate = useNavigate();
  const targetRef = useRef(target);
  targetRef.current = target;
  const onSentRef = useRef(onSent);
  onSentRef.current = onSent;
  const queued = useSafeLiveQuery(
    async () => (userId === null ? [] : targetRef.current.readWaiting(userId)),
    [userId, target.draftKey],
    [],
  );

  const wasWaiting = useRef(false);
  useEffect(() => {
    if (queued === undefined || !draft.loaded) return;
    if (queued.length > 0) {
      wasWaiting.current = true;
      return;
    }
    if (!wasWaiting.current) return;
    // The outbox row and the draft go in one transaction, but the two live reads may see it apart.
    if (draft.draft === undefined) {
      wasWaiting.current = false;
      const open = targetRef.current.openAfterSent;
      if (open !== undefined) {
        // One answer, one move: the submit may have opened it already.
        if (opened.current) return;
        opened.current = true;
        void navigate(paths.drawdown.url({ id: open }));
        return;
      }
      onSentRef.current();
    } else if (draft.draft.status !== 'queued') wasWaiting.current = false;
  }, [queued, draft.loaded, draft.draft, navigate, opened]);

  return queued;
}
