import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { FormStep, Journey, JourneyStep } from '../../../../shared/journey/steps';
import { errorMessages } from '../../../../shared/rules/error-codes';
import { codeMessage } from '../../../api/failure';
import { whenSent } from '../../../offline/when-sent';
import { paths } from '../../../routing/paths';
import { useStillHere } from '../../../routing/still-here';
import { Button } from '../../../ui/button';
import { ActionBar } from '../../../ui/action-bar';
import { ErrorSummary } from '../../../ui/error-summary';
import { useDraft } from '../../../offline/drafts';
import { useConfirm } from '../../../ui/modal-store';
import { useToast } from '../../../ui/toast-store';
import { isLocalApplicationId, submitRefusalKey } from '../offline/application-ids';
import { RefusalWords } from './refusal-words';
import { JourneySections } from './journey-sections';
import { openApplicationPdf } from '../details/application-pdf';
import { submitApplication } from './save-step';
import type { Audience } from './steps/step-definition';
import { stepTitle } from './use-journey';
import { blockingSteps, lookupsOf } from './live-journey';
import { useSolicitorList } from './steps/independent-step';

const SUBMIT_QUESTION = 'Are you sure you want to submit this application?';
const SUBMITTED_MESSAGE = 'The application has been submitted.';

interface SummaryStepProps {
  applicationId: number | string;
  audience: Audience;
  steps: readonly FormStep[];
  journey: Journey;
  /** The caller may submit the application now (the server's `abilities.submit`). */
  canSubmit: boolean;
  /** The live Form E files by id (and local id), to name them. */
  fileNames: ReadonlyMap<number | string, string>;
}

const BLOCKED_MESSAGE = 'Please complete these steps first:';

/** A refused submit as the device keeps it: what it was about (the application), read loosely. */
const parseRefusal = (stored: unknown): { applicationId?: unknown } | null =>
  stored && typeof stored === 'object' ? (stored as { applicationId?: unknown }) : null;

/**
 * The final step: every step's answers, read only; 'Download PDF' (made on the server) and
 * 'submit application' with a confirmation, sent through the outbox.
 */
export function SummaryStep({ applicationId, audience, steps, journey, canSubmit, fileNames }: SummaryStepProps) {
  const confirm = useConfirm();
  const toast = useToast();
  const navigate = useNavigate();
  const stillHere = useStillHere();
  const [busy, setBusy] = useState<'pdf' | 'submit' | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  // A submit the server refused, kept on the device until read (it counts in 'Needs your attention').
  const refusal = useDraft(submitRefusalKey(applicationId), parseRefusal);
  const refused = refusal.draft?.status === 'rejected' ? refusal.draft : undefined;
  const clearRefusal = refusal.clear;
  /** Steps the server named when it refused the submit (it may see more than the device). */
  const [refusedSteps, setRefusedSteps] = useState<FormStep[]>([]);
  const blockersRef = useRef<HTMLDivElement>(null);
  const journeySteps = steps.filter((step): step is JourneyStep => step !== 'summary');
  const local = isLocalApplicationId(applicationId);
  const solicitors = useSolicitorList();
  const lookups = useMemo(() => lookupsOf(fileNames, solicitors.data?.items), [fileNames, solicitors.data]);
  // What blocks the submit now, by the server's own rule on the saved and queued journey (decision 331).
  const blockers = useMemo(() => {
    const known = blockingSteps(journey, audience).filter((step) => steps.includes(step));
    return steps.filter((step) => known.includes(step as JourneyStep) || refusedSteps.includes(step));
  }, [journey, audience, steps, refusedSteps]);

  /** The list of blocking steps is brought into view and focused, so a refused submit is never silent. */
  const showBlockers = () => {
    requestAnimationFrame(() => {
      blockersRef.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
      blockersRef.current?.focus({ preventScroll: true });
    });
  };

  const downloadPdf = async () => {
    if (local || busy) return;
    setBusy('pdf');
    try {
      await openApplicationPdf(Number(applicationId));
    } catch {
      toast.unhandled();
    } finally {
      setBusy(null);
    }
  };

  // Steps the server named: the list above the answers says them (decision 331), not the summary.
  useEffect(() => {
    if (refused?.serverError !== 'incompleteSteps') return;
    const named = Object.keys(refused.serverCodes ?? {}).filter((step): step is FormStep => steps.includes(step as FormStep));
    setRefusedSteps(named);
    if (named.length === 0) setMessage(codeMessage('incompleteSteps', errorMessages.validation));
    showBlockers();
    void clearRefusal();
  }, [refused, steps, clearRefusal]);

  const submit = async () => {
    if (busy) return;
    if (blockers.length > 0) {
      setMessage(null);
      showBlockers();
      return;
    }
    if (!(await confirm(SUBMIT_QUESTION))) return;
    setBusy('submit');
    setMessage(null);
    setRefusedSteps([]);
    // A late answer does not take the user back from a page they went to meanwhile.
    const isHere = stillHere();
    try {
      const result = await submitApplication(applicationId);
      if (result.status === 'done') {
        toast.notify(SUBMITTED_MESSAGE);
        if (isHere()) void navigate(paths.applications.url());
      } else if (result.status === 'queued') {
        toast.notify(`Submitted on this device. It will be sent ${whenSent()}.`);
        if (isHere()) void navigate(paths.applications.url());
      }
      // Refused: the device keeps the refusal and the page shows it (the effect above for missing
      // steps, the summary at the top for the rest).
    } catch {
      toast.unhandled();
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="summary-step">
      {refused && refused.serverError !== 'incompleteSteps' ? (
        <ErrorSummary
          focusKey={refused.updatedAt}
          actions={
            <>
              {local ? null : <Link to={paths.applicationDetails.url({ id: applicationId })}>View the application</Link>}
              <Button variant="link" onClick={() => void clearRefusal()}>
                dismiss
              </Button>
            </>
          }
        >
          <RefusalWords
            code={refused.serverError ?? 'unhandled'}
            details={refused.serverDetails}
            audience={audience}
            write="submit"
          />
        </ErrorSummary>
      ) : message ? (
        <ErrorSummary focusKey={message}>
          <p>{message}</p>
        </ErrorSummary>
      ) : null}
      {blockers.length > 0 ? (
        <div className="summary-blockers" aria-live="polite" tabIndex={-1} ref={blockersRef}>
          <p className="summary-blockers__title">{BLOCKED_MESSAGE}</p>
          <ul className="summary-blockers__list">
            {blockers.map((step) => (
              <li key={step}>
                <Link to={paths.applicationStep.url({ id: applicationId, step })}>{stepTitle(audience, step)}</Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <JourneySections journey={journey} steps={journeySteps} audience={audience} lookups={lookups} />
      <ActionBar className="wizard-actions">
        <Button variant="secondary" busy={busy === 'pdf'} disabled={local} onClick={() => void downloadPdf()}>
          Download PDF
        </Button>
        {canSubmit ? (
          <Button busy={busy === 'submit'} onClick={() => void submit()}>
            submit application
          </Button>
        ) : null}
      </ActionBar>
      {local ? <p className="wizard-note">The PDF can be made once the application has reached the server.</p> : null}
    </div>
  );
}
