import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { FormStep, Journey, JourneyStep } from '../../../shared/journey/steps';
import { isStepComplete } from '../../../shared/journey/completeness';
import { errorMessages } from '../../../shared/rules/error-codes';
import { codeMessage } from '../../api/failure';
import { paths } from '../../routing/paths';
import { Button } from '../../ui/button';
import { FormMessage } from '../../ui/form-message';
import { useConfirm } from '../../ui/modal-store';
import { useToast } from '../../ui/toast-store';
import { isLocalApplicationId } from './offline/application-ids';
import { JourneySections } from './journey-sections';
import { openApplicationPdf } from './application-pdf';
import { submitApplication } from './save-step';
import type { Audience } from './steps/step-definition';
import { stepTitle } from './use-journey';

const SUBMIT_QUESTION = 'Are you sure you want to submit this application?';
const SUBMITTED_MESSAGE = 'The application has been submitted.';
const SUBMIT_QUEUED_MESSAGE = 'Submitted on this device. It will be sent when you are back online.';

interface SummaryStepProps {
  applicationId: number | string;
  audience: Audience;
  steps: readonly FormStep[];
  journey: Journey;
  /** The caller may submit the application now (the server's `abilities.submit`). */
  canSubmit: boolean;
}

/**
 * The final step: every step's answers, read only; 'Download PDF' (made on the server) and
 * 'submit application' with a confirmation, sent through the outbox.
 */
export function SummaryStep({ applicationId, audience, steps, journey, canSubmit }: SummaryStepProps) {
  const confirm = useConfirm();
  const toast = useToast();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<'pdf' | 'submit' | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [missing, setMissing] = useState<FormStep[]>([]);
  const journeySteps = steps.filter((step): step is JourneyStep => step !== 'summary');
  const local = isLocalApplicationId(applicationId);

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

  const submit = async () => {
    if (busy) return;
    const incomplete = journeySteps.filter((step) => !isStepComplete(step, journey, audience));
    if (incomplete.length > 0) {
      setMissing(incomplete);
      setMessage('Please complete these steps first:');
      return;
    }
    if (!(await confirm(SUBMIT_QUESTION))) return;
    setBusy('submit');
    setMessage(null);
    setMissing([]);
    try {
      const result = await submitApplication(applicationId);
      if (result.status === 'done') {
        toast.notify(SUBMITTED_MESSAGE);
        void navigate(paths.applications.url());
      } else if (result.status === 'queued') {
        toast.notify(SUBMIT_QUEUED_MESSAGE);
        void navigate(paths.applications.url());
      } else if (result.status === 'rejected' && result.error === 'incompleteSteps') {
        const named = Object.keys(result.fields).filter((step): step is FormStep => steps.includes(step as FormStep));
        setMissing(named);
        setMessage('Please complete these steps first:');
      } else {
        // A submit carries no version: a conflict is the status having moved on meanwhile.
        setMessage(codeMessage(result.status === 'rejected' ? result.error : 'conflict', errorMessages.unhandled));
      }
    } catch {
      toast.unhandled();
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="summary-step">
      <JourneySections journey={journey} steps={journeySteps} audience={audience} />
      <div className="wizard-actions">
        <Button variant="secondary" busy={busy === 'pdf'} disabled={local} onClick={() => void downloadPdf()}>
          Download PDF
        </Button>
        {canSubmit ? (
          <Button busy={busy === 'submit'} onClick={() => void submit()}>
            submit application
          </Button>
        ) : null}
      </div>
      {local ? <p className="wizard-note">The PDF can be made once the application has reached the server.</p> : null}
      <FormMessage message={message} />
      {missing.length > 0 ? (
        <ul className="summary-missing">
          {missing.map((step) => (
            <li key={step}>{stepTitle(audience, step)}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
