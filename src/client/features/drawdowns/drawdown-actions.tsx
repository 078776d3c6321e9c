import { useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import * as v from 'valibot';
import { clientDeclarationKeys, clientDeclarationLabels, type ClientDeclarationKey } from '../../../shared/rules/declarations';
import type { DrawdownStatus } from '../../../shared/rules/statuses';
import { codeMessage } from '../../api/failure';
import { useQueuedDecision } from '../../offline/queued-decision';
import { brandAtom } from '../../session/brand';
import { Button } from '../../ui/button';
import { ActionBar } from '../../ui/action-bar';
import { RadioField } from '../../ui/choice-fields';
import { DecisionRefused, DecisionWaiting } from '../../ui/decision-notice';
import { FormMessage } from '../../ui/form-message';
import { noticeOrStatus } from '../../ui/focus-return';
import { drawdownStateKey } from './offline/change-drawdown-state-mutation';
import './offline/drawdown-mutations';

/** Each change of a drawdown's status: its button and the question asked first (ours: the spec gives none). */
export const drawdownStateActions: Record<DrawdownStatus, { label: string; question: string }> = {
  requested: { label: 'request drawdown', question: 'Are you sure you want to request this drawdown?' },
  providerApproved: { label: 'approve', question: 'Are you sure you want to approve this drawdown request?' },
  providerRejected: { label: 'reject', question: 'Are you sure you want to reject this drawdown request?' },
  customerApproved: { label: 'approve request', question: 'Are you sure you want to approve this drawdown request?' },
  customerRejected: { label: 'reject request', question: 'Are you sure you want to reject this drawdown request?' },
  paid: { label: 'set status to paid', question: 'Are you sure you want to set this drawdown to paid?' },
};

/** What a refused decision left under its key (the kind's draftValue). */
const stateSchema = v.object({ state: v.string() });

const trueFalse = [
  { value: 'true', label: 'True' },
  { value: 'false', label: 'False' },
] as const;

type Answers = Record<ClientDeclarationKey, boolean | null>;
const unanswered = Object.fromEntries(clientDeclarationKeys.map((key) => [key, null])) as Answers;

/** The spec's words when the client does not agree with a declaration, with the configured contact details. */
export function disagreeMessage(phone: string, email: string): string {
  return `If you do not agree with any of these declarations, please contact us by phone at ${phone} or by email at ${email}`;
}

/**
 * What the caller may do with the drawdown now (the record's abilities), each confirmed first and
 * sent through the outbox: made offline, the decision waits on the device and is sent once; when
 * someone else acted first, the refusal stays on the page (and in 'Needs your attention') until read.
 * The client approves with the five declarations: 'approve request' only when all five are True
 * and no update is running.
 */
export function DrawdownActions({
  drawdownId,
  transitions,
  offlineCopy,
  onChanged,
}: {
  drawdownId: number;
  transitions: readonly DrawdownStatus[];
  offlineCopy: boolean;
  onChanged: () => void;
}) {
  const brand = useAtomValue(brandAtom);
  const sectionRef = useRef<HTMLElement>(null);
  const [answers, setAnswers] = useState<Answers>(unanswered);
  // A decision on this drawdown still on the device: no second one until it has gone.
  const decision = useQueuedDecision('changeDrawdownState', drawdownStateKey(drawdownId), { refused: stateSchema, onChanged });
  const { refusal: refused, waiting: pending, message } = decision;
  const busy = decision.busy?.state ?? null;

  const clientApproves = transitions.includes('customerApproved');
  const allTrue = clientDeclarationKeys.every((key) => answers[key] === true);
  const anyFalse = clientDeclarationKeys.some((key) => answers[key] === false);

  const change = (state: DrawdownStatus) => {
    if (state === 'customerApproved' && !allTrue) return;
    const declarations =
      state === 'customerApproved'
        ? (Object.fromEntries(clientDeclarationKeys.map((key) => [key, true])) as Record<ClientDeclarationKey, boolean>)
        : undefined;
    // Once the decision is made its button goes: the focus goes to the notice, else the new status.
    void decision.run(
      { drawdownId, state, ...(declarations ? { clientDeclarations: declarations } : {}) },
      { question: drawdownStateActions[state].question, focusAfter: () => noticeOrStatus(sectionRef.current) },
    );
  };

  if (transitions.length === 0 && !refused && !message && !pending) return null;
  const others = transitions.filter((state) => state !== 'customerApproved');

  return (
    <section ref={sectionRef} className="drawdown-actions" aria-labelledby="drawdown-actions-title">
      <h2 id="drawdown-actions-title" className="drawdown-section__title">
        {clientApproves ? 'Your approval' : 'Actions'}
      </h2>
      {refused ? (
        <DecisionRefused
          what={`Your decision ‘${drawdownStateActions[refused.value.state as DrawdownStatus]?.label ?? refused.value.state}’`}
          why={codeMessage(refused.serverError ?? 'unhandled')}
          onDismiss={() => void decision.dismiss()}
        />
      ) : null}
      {pending ? <DecisionWaiting what={`Your decision ‘${drawdownStateActions[pending.state].label}’`} /> : null}
      {clientApproves && !pending ? (
        <fieldset className="drawdown-declarations">
          <legend className="drawdown-declarations__legend">Your declarations</legend>
          {clientDeclarationKeys.map((key) => (
            <RadioField
              key={key}
              className="drawdown-declarations__item"
              label={clientDeclarationLabels[key]}
              orientation="horizontal"
              options={trueFalse}
              value={answers[key] === null ? '' : String(answers[key])}
              onValueChange={(next) => setAnswers((current) => ({ ...current, [key]: next === 'true' }))}
            />
          ))}
          <div className="drawdown-declarations__contact" aria-live="polite">
            {anyFalse ? <p className="drawdown-notice">{disagreeMessage(brand.phone, brand.email)}</p> : null}
          </div>
        </fieldset>
      ) : null}
      {transitions.length > 0 && !pending ? (
        <ActionBar className="drawdown-actions__buttons">
          {clientApproves ? (
            <Button
              disabled={!allTrue || busy !== null}
              busy={busy === 'customerApproved'}
              onClick={() => change('customerApproved')}
            >
              {drawdownStateActions.customerApproved.label}
            </Button>
          ) : null}
          {others.map((state) => (
            <Button
              key={state}
              variant={state === 'providerRejected' || state === 'customerRejected' ? 'secondary' : 'primary'}
              busy={busy === state}
              disabled={busy !== null && busy !== state}
              onClick={() => change(state)}
            >
              {drawdownStateActions[state].label}
            </Button>
          ))}
        </ActionBar>
      ) : null}
      {offlineCopy ? (
        <p className="drawdown-hint">This is a saved copy: a decision you make is sent once you are back online.</p>
      ) : null}
      <FormMessage message={message} />
    </section>
  );
}
