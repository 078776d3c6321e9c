import { useRef, useState } from 'react';
import { codeMessage } from '../../../api/failure';
import { enqueue, waitForResult } from '../../../offline/outbox';
import { useQueuedDecision } from '../../../offline/queued-decision';
import { Button } from '../../../ui/button';
import { CheckboxField } from '../../../ui/choice-fields';
import { DecisionRefused, DecisionWaiting } from '../../../ui/decision-notice';
import { FormMessage } from '../../../ui/form-message';
import { noticeOrStatus } from '../../../ui/focus-return';
import { useToast } from '../../../ui/toast-store';
import type { Application } from '../applications-api';
import { reviewCheckKey, reviewDecisionKey, type ReviewCheck, type ReviewDecision } from '../offline/review-mutations';
import '../offline/review-mutations';
import { applicationCheckLabels, reviewChecks } from '../../../../shared/rules/review';
import type { DetailsAbilities } from './review-abilities';
import { checkValue, decisionValue, useQueuedChecks } from './review-writes';

/** The spec's words under 'prepare docusign' when the envelope cannot be made (section 8). */
export const ENVELOPE_FAILED = "Docusign envelope can't be prepared. Check your documents format";

/** Each decision: its button (the spec's), the question asked first and what is said once it is made (decision 302). */
export const decisionWords: Record<ReviewDecision, { label: string; question: string; done: string }> = {
  accept: {
    label: 'accept',
    question: 'Are you sure you want to accept this application?',
    done: 'The application has been accepted.',
  },
  reject: {
    label: 'reject',
    question: 'Are you sure you want to reject this application?',
    done: 'The application has been rejected.',
  },
  prepareEnvelope: {
    label: 'prepare docusign',
    question: 'Are you sure you want to prepare the docusign envelope?',
    done: 'The docusign envelope has been prepared.',
  },
  notifyClient: {
    label: 'Notify client',
    question: 'Are you sure you want to notify the client to sign the documents?',
    done: 'The client has been notified.',
  },
};

interface ReviewActionsProps {
  application: Application;
  abilities: DetailsAbilities;
  offlineCopy: boolean;
  onChanged: () => void;
}

/** A check the server refused: why, until dismissed. */
function CheckRefusal({ applicationId, check, onChanged }: { applicationId: number; check: ReviewCheck; onChanged: () => void }) {
  const write = useQueuedDecision('reviewCheck', reviewCheckKey(applicationId, check), { refused: checkValue, onChanged });
  if (!write.refusal) return null;
  return (
    <DecisionRefused
      what={`Your change ‘${applicationCheckLabels[check]}’`}
      why={codeMessage(write.refusal.serverError ?? 'unhandled')}
      onDismiss={() => void write.dismiss()}
    />
  );
}

/**
 * The workflow of the review screen, as the record's abilities list it (decision 301): in the review
 * state the three checks (each saved on its own as it is ticked), 'accept' (once all three are ticked
 * and nothing is loading) and 'reject'; in the prepare state the certificate check, 'prepare
 * docusign' (once it is ticked) and then 'Notify client'. Every write goes through the outbox
 * (decision 305): made offline it waits on the device and is sent once; refused, the page says why.
 */
export function ReviewActions({ application, abilities, offlineCopy, onChanged }: ReviewActionsProps) {
  const toast = useToast();
  const queuedChecks = useQueuedChecks(application.id);
  const write = useQueuedDecision('reviewDecision', reviewDecisionKey(application.id), { refused: decisionValue, onChanged });
  const [ticked, setTicked] = useState<Partial<Record<ReviewCheck, boolean>>>({});
  const [saving, setSaving] = useState<ReviewCheck[]>([]);
  const sectionRef = useRef<HTMLElement>(null);
  const busy = write.busy?.decision ?? null;
  const { message } = write;

  const value = (check: ReviewCheck): boolean => ticked[check] ?? queuedChecks[check] ?? application[check];
  const editable = (check: ReviewCheck) => abilities.checks.includes(check);
  const loading = saving.length > 0 || busy !== null;

  // A tick is saved as it is made, no question asked, several at once: not a decision of its own.
  const tick = async (check: ReviewCheck, status: boolean) => {
    setTicked((current) => ({ ...current, [check]: status }));
    setSaving((current) => [...current, check]);
    try {
      const id = await enqueue({
        kind: 'reviewCheck',
        applicationId: application.id,
        check,
        status,
        draftKey: reviewCheckKey(application.id, check),
      });
      const result = await waitForResult(id);
      if (result.status === 'rejected' || result.status === 'conflict') {
        setTicked(({ [check]: _dropped, ...rest }) => rest);
        onChanged();
      } else if (result.status === 'done') onChanged();
    } catch {
      setTicked(({ [check]: _dropped, ...rest }) => rest);
      toast.unhandled();
    } finally {
      setSaving((current) => {
        const at = current.indexOf(check);
        return at === -1 ? current : [...current.slice(0, at), ...current.slice(at + 1)];
      });
    }
  };

  // Once the decision is made its button goes: the focus goes to the notice, else the new status.
  const decide = async (choice: ReviewDecision) => {
    const result = await write.run(
      { applicationId: application.id, decision: choice },
      { question: decisionWords[choice].question, focusAfter: () => noticeOrStatus(sectionRef.current) },
    );
    // 'queued': the waiting note says so; 'rejected': the refusal below says why.
    if (result.status === 'done') toast.notify(decisionWords[choice].done);
  };

  const tickable = reviewChecks.filter(editable);
  // The server says 'accept' (and 'prepare docusign') only once their checks are ticked there; the
  // buttons show in their state from the start, enabled once the checks read ticked here (decision 301).
  const showAccept = abilities.accept || (tickable.length > 0 && abilities.reject);
  const showPrepare = abilities.prepareEnvelope || editable('independentAdvice');
  const refused = write.refusal;
  const refusedDecision = refused?.value.decision;
  const envelopeRefusal = refusedDecision === 'prepareEnvelope' && refused?.serverError !== 'conflict';
  // Under the button while it is offered (pressing it again sends it again); otherwise a notice.
  const envelopeFailed = envelopeRefusal && showPrepare;
  const allTicked = reviewChecks.every(value);
  const certificate = value('independentAdvice');
  const pending = write.waiting?.decision;

  const offers =
    tickable.length > 0 ||
    editable('independentAdvice') ||
    showAccept ||
    abilities.reject ||
    showPrepare ||
    abilities.notifyClient;
  if (!offers && !refused && !pending && !message) return null;

  const decisionButton = (decision: ReviewDecision, enabled: boolean, variant: 'primary' | 'secondary' = 'primary') => (
    <Button
      variant={variant}
      busy={busy === decision}
      disabled={!enabled || (busy !== null && busy !== decision)}
      onClick={() => void decide(decision)}
    >
      {decisionWords[decision].label}
    </Button>
  );

  return (
    <section ref={sectionRef} className="details-section details-workflow" aria-labelledby="details-workflow-title">
      <h2 id="details-workflow-title" className="details-section__title">
        Review
      </h2>
      {refused && !envelopeFailed && refusedDecision ? (
        <DecisionRefused
          what={`Your decision ‘${decisionWords[refusedDecision].label}’`}
          why={envelopeRefusal ? ENVELOPE_FAILED : codeMessage(refused.serverError ?? 'unhandled')}
          onDismiss={() => void write.dismiss()}
        />
      ) : null}
      {(['kycAmlCheck', 'credidCheck', 'repaymentVehicle', 'independentAdvice'] as const).map((check) => (
        <CheckRefusal key={check} applicationId={application.id} check={check} onChanged={onChanged} />
      ))}
      {tickable.length > 0 ? (
        <fieldset className="details-checks">
          <legend className="visually-hidden">Review checks</legend>
          {tickable.map((check) => (
            <CheckboxField
              key={check}
              label={applicationCheckLabels[check]}
              checked={value(check)}
              disabled={pending !== undefined}
              onCheckedChange={(next) => void tick(check, next)}
            />
          ))}
        </fieldset>
      ) : null}
      {editable('independentAdvice') ? (
        <CheckboxField
          label={applicationCheckLabels.independentAdvice}
          checked={certificate}
          disabled={pending !== undefined}
          onCheckedChange={(next) => void tick('independentAdvice', next)}
        />
      ) : null}
      {pending ? (
        <DecisionWaiting what={`Your decision ‘${decisionWords[pending].label}’`} />
      ) : (
        <>
          {showAccept || abilities.reject ? (
            <div className="details-actions">
              {abilities.reject ? decisionButton('reject', !loading || busy === 'reject', 'secondary') : null}
              {showAccept ? decisionButton('accept', allTicked && !loading) : null}
            </div>
          ) : null}
          {showPrepare ? (
            <div className="details-actions details-actions--stacked">
              {decisionButton('prepareEnvelope', certificate && !loading)}
              {envelopeFailed ? (
                <p className="details-error" role="alert">
                  {ENVELOPE_FAILED}
                </p>
              ) : null}
            </div>
          ) : null}
          {abilities.notifyClient ? (
            <div className="details-actions">{decisionButton('notifyClient', !loading || busy === 'notifyClient')}</div>
          ) : null}
        </>
      )}
      {offlineCopy ? (
        <p className="details-hint">This is a saved copy: a decision you make is sent once you are back online.</p>
      ) : null}
      <FormMessage message={message} />
    </section>
  );
}
