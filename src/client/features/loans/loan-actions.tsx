import { useRef, useState } from 'react';
import { errorMessages } from '../../../shared/rules/error-codes';
import type { LoanStatus } from '../../../shared/rules/statuses';
import { codeMessage } from '../../api/failure';
import { api } from '../../api/client';
import { useDraft } from '../../offline/drafts';
import { useAtomValue } from 'jotai';
import { enqueue, readQueued, waitForResult } from '../../offline/outbox';
import { useSafeLiveQuery } from '../../offline/live';
import { sessionUserAtom } from '../../session/session';
import { useConfirmedAction } from '../../admin-kit/confirmed-action';
import { Button } from '../../ui/button';
import { FormMessage } from '../../ui/form-message';
import { noticeOrStatus } from '../../ui/focus-return';
import { useConfirm } from '../../ui/modal-store';
import { useToast } from '../../ui/toast-store';
import { loanStateKey } from './offline/change-loan-state-mutation';
import './offline/loan-mutations';
import type { LoanAbilities } from './loan-abilities';
import type { Loan } from './loans-api';

/** Each change of a loan's status: its button and the question asked first (the spec's where it has them). */
export const loanStateActions: Record<LoanStatus, { label: string; question: string }> = {
  blocked: { label: 'block loan', question: 'Are you sure you want to block loan?' },
  paid: { label: 'set status to paid', question: 'Are you sure you want to set loan status to paid?' },
  open: { label: 'unblock loan', question: 'Are you sure you want to unblock loan?' },
  closed: { label: 'close loan', question: 'Are you sure you want to close loan?' },
};

/**
 * The loan's status changes the server lists for the caller (staff: block, set paid, unblock,
 * close; the client: block their own loan), each confirmed first. They go through the outbox: a
 * change made offline waits on the device and is sent once, and a refusal (someone else changed the
 * loan first) stays until the user has read it, counted in 'Needs your attention'.
 */
export function LoanStateActions({
  loan,
  abilities,
  offlineCopy,
  onChanged,
}: {
  loan: Loan;
  abilities: LoanAbilities;
  offlineCopy: boolean;
  onChanged: () => void;
}) {
  const confirm = useConfirm();
  const refusal = useDraft<{ state: string }>(loanStateKey(loan.id), (stored) =>
    stored && typeof stored === 'object' && typeof (stored as { state?: unknown }).state === 'string'
      ? (stored as { state: string })
      : null,
  );
  const sectionRef = useRef<HTMLDivElement>(null);
  const [busy, setBusy] = useState<LoanStatus | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const userId = useAtomValue(sessionUserAtom)?.id ?? null;
  // A change of this loan still on the device: no second one until it has gone.
  const waiting = useSafeLiveQuery(
    async () => (userId === null ? [] : (await readQueued(userId, 'changeLoanState')).filter((item) => item.loanId === loan.id)),
    [userId, loan.id],
    [],
  );
  const pending = waiting?.[0];

  const change = async (state: LoanStatus) => {
    if (busy) return;
    // Once the change is made its button goes: the focus goes to the notice, else the new status.
    const focusAfter = () => noticeOrStatus(sectionRef.current);
    if (!(await confirm({ message: loanStateActions[state].question, focusAfter }))) return;
    setBusy(state);
    setMessage(null);
    try {
      const id = await enqueue({ kind: 'changeLoanState', loanId: loan.id, state, draftKey: loanStateKey(loan.id) });
      const result = await waitForResult(id);
      if (result.status === 'done') onChanged();
      // 'queued': the waiting note below says so; 'rejected': the refusal says why (kept until dismissed).
    } catch {
      setMessage(errorMessages.unhandled);
    } finally {
      setBusy(null);
    }
  };

  const refused = refusal.draft?.status === 'rejected' ? refusal.draft : undefined;
  if (abilities.transitions.length === 0 && !refused && !message && !pending) return null;

  return (
    <div ref={sectionRef} className="loan-state-actions">
      {refused ? (
        <div className="loan-notice loan-notice--warning" role="alert">
          <p>
            Your change ‘{loanStateActions[refused.value.state as LoanStatus]?.label ?? refused.value.state}’ was not made:{' '}
            {codeMessage(refused.serverError ?? 'unhandled')}
          </p>
          <Button
            variant="secondary"
            onClick={() => {
              void refusal.clear();
              onChanged();
            }}
          >
            dismiss
          </Button>
        </div>
      ) : null}
      {pending ? (
        <p className="loan-notice" role="status">
          Your change ‘{loanStateActions[pending.state].label}’ is kept on this device and will be sent once you are back online.
        </p>
      ) : abilities.transitions.length > 0 ? (
        <div className="loan-actions">
          {abilities.transitions.map((state) => (
            <Button
              key={state}
              variant={state === 'blocked' ? 'secondary' : 'primary'}
              busy={busy === state}
              disabled={busy !== null && busy !== state}
              onClick={() => void change(state)}
            >
              {loanStateActions[state].label}
            </Button>
          ))}
        </div>
      ) : null}
      {offlineCopy ? (
        <p className="loan-hint">This is a saved copy: a change you make is sent once you are back online.</p>
      ) : null}
      <FormMessage message={message} />
    </div>
  );
}

/**
 * The lawyer's 'request loan balance' (GET /loans/{id}/balance): confirmed first, then the spec's
 * notice 'Successfully requested' / 'The administrator will contact you'. It needs the server.
 */
export function RequestBalanceButton({ loanId }: { loanId: number }) {
  const toast = useToast();
  const [message, setMessage] = useState<string | null>(null);
  const { busy, run } = useConfirmedAction({
    question: 'Are you sure you want to request the loan balance?',
    call: () => api.GET('/loans/{id}/balance', { params: { path: { id: loanId } } }),
    onDone: () => toast.notify('The administrator will contact you', 'Successfully requested'),
    setMessage,
  });
  return (
    <div className="loan-balance">
      <Button variant="secondary" busy={busy} onClick={() => void run()}>
        request loan balance
      </Button>
      <FormMessage message={message} />
    </div>
  );
}
