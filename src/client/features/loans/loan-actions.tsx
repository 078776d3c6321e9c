import { useRef, useState } from 'react';
import * as v from 'valibot';
import type { LoanStatus } from '../../../shared/rules/statuses';
import { codeMessage } from '../../api/failure';
import { api } from '../../api/client';
import { useQueuedDecision } from '../../offline/queued-decision';
import { useConfirmedAction } from '../../admin-kit/confirmed-action';
import { Button } from '../../ui/button';
import { DecisionRefused, DecisionWaiting } from '../../ui/decision-notice';
import { FormMessage } from '../../ui/form-message';
import { noticeOrStatus } from '../../ui/focus-return';
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

/** What a refused change left under its key (the kind's draftValue). */
const stateSchema = v.object({ state: v.string() });

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
  const sectionRef = useRef<HTMLDivElement>(null);
  // A change of this loan still on the device: no second one until it has gone.
  const decision = useQueuedDecision('changeLoanState', loanStateKey(loan.id), { refused: stateSchema, onChanged });
  const { refusal: refused, waiting: pending, message } = decision;
  const busy = decision.busy?.state ?? null;

  // Once the change is made its button goes: the focus goes to the notice, else the new status.
  const change = (state: LoanStatus) =>
    decision.run(
      { loanId: loan.id, state },
      { question: loanStateActions[state].question, focusAfter: () => noticeOrStatus(sectionRef.current) },
    );

  if (abilities.transitions.length === 0 && !refused && !message && !pending) return null;

  return (
    <div ref={sectionRef} className="loan-state-actions">
      {refused ? (
        <DecisionRefused
          what={`Your change ‘${loanStateActions[refused.value.state as LoanStatus]?.label ?? refused.value.state}’`}
          why={codeMessage(refused.serverError ?? 'unhandled')}
          onDismiss={() => void decision.dismiss()}
        />
      ) : null}
      {pending ? (
        <DecisionWaiting what={`Your change ‘${loanStateActions[pending.state].label}’`} />
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
