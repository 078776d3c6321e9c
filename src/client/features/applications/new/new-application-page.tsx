import { useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { errorMessages, messageForCode } from '../../../../shared/rules/error-codes';
import { wizardAudience } from '../../../../shared/journey/audience';
import { codeMessage } from '../../../api/failure';
import { whenSent } from '../../../offline/when-sent';
import { paths } from '../../../routing/paths';
import { useStillHere } from '../../../routing/still-here';
import { useLeaveConfirmation } from '../../../routing/leave-confirmation';
import { sessionUserAtom } from '../../../session/session';
import { enqueue, waitForResult } from '../../../offline/outbox';
import { moveDraft } from '../../../offline/drafts';
import { newLocalApplicationId, stepDraftKey } from '../offline/application-ids';
import '../offline/application-mutations';
import { Button } from '../../../ui/button';
import { ActionBar } from '../../../ui/action-bar';
import { ErrorSummary } from '../../../ui/error-summary';
import { Page } from '../../../ui/page';
import { useToast } from '../../../ui/toast-store';
import { StepBar } from '../wizard/step-bar';
import { stepDefinitions } from '../wizard/steps/registry';
import { nextStep, stepBarItems } from '../wizard/use-journey';
import { focusFirstError } from '../../../ui/action-bars';
import { useStepForm } from '../wizard/use-step-form';
import { LawyerChoice } from './lawyer-choice';
import { resumeHref } from '../wizard/wizard-routes';
import '../wizard/step-form.css';
import '../wizard/wizard.css';
import './new-application.css';

/** The device's draft of the form, until the application exists. */
export const NEW_APPLICATION_DRAFT_KEY = 'new-application';

const idOf = (body: unknown): number | null => {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'number' ? id : null;
};

/**
 * /applications/new (createApplication): the step bar with every step disabled and the first one
 * active, and the client-details form. Creating goes through the outbox: online the screen waits
 * and opens the application's first incomplete step; offline the application is kept on the device
 * as `local-<uuid>` and the user may go on with the next step.
 */
export default function NewApplicationPage() {
  const user = useAtomValue(sessionUserAtom);
  const def = stepDefinitions.personal;
  const form = useStepForm({
    def,
    draftKey: NEW_APPLICATION_DRAFT_KEY,
    serverData: undefined,
    serverVersion: 0,
    audience: 'lawyer',
  });
  const navigate = useNavigate();
  const stillHere = useStillHere();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  /** The server's refusal of the create, said at the top of the form; `at` tells refusals apart. */
  const [banner, setBanner] = useState<{ text: string; at: number } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // Root is no lawyer: it chooses whose application this is (decision 345); a lawyer's is their own.
  const choosesLawyer = Boolean(user && !user.lawyerId && user.role === 'root');
  const [lawyerId, setLawyerId] = useState('');
  const [lawyerCode, setLawyerCode] = useState<string | undefined>(undefined);
  const [submitted, setSubmitted] = useState(false);
  const lawyerError = lawyerCode ?? (choosesLawyer && submitted && lawyerId === '' ? 'required' : undefined);
  useLeaveConfirmation(form.dirty, busy, { keptOnDevice: form.keptOnDevice });

  const create = async () => {
    if (!form.validation?.success || !user) return;
    const chosenLawyer = choosesLawyer ? Number(lawyerId) : user.lawyerId;
    const personal = form.validation.output;
    const values = form.values;
    const localId = newLocalApplicationId();
    setBusy(true);
    setBanner(null);
    // What was typed becomes the local application's own draft as the create is queued (the engine
    // moves it): if the create is refused after it left from the outbox, the values and the
    // server's messages wait there (its wizard shows them); once the server has it, it goes.
    const localDraft = stepDraftKey(localId, 'personal');
    // A late answer does not take the user back from a page they went to meanwhile.
    const isHere = stillHere();
    try {
      const id = await enqueue({
        kind: 'createApplication',
        localId,
        personal,
        draftKey: localDraft,
        draftFrom: NEW_APPLICATION_DRAFT_KEY,
        ...(chosenLawyer ? { lawyerId: chosenLawyer } : {}),
      });
      const result = await waitForResult(id);
      // Root has no wizard: it reads the application's details (the lawyer and the client fill it).
      const fillsJourney = wizardAudience(user.role) !== null;
      if (result.status === 'done') {
        const serverId = idOf(result.body);
        form.markSaved(values);
        if (!isHere()) return;
        if (!serverId) void navigate(paths.applications.url());
        else void navigate(fillsJourney ? resumeHref(serverId) : paths.applicationDetails.url({ id: serverId }));
      } else if (result.status === 'queued') {
        form.markSaved(values);
        toast.notify(`Saved on this device. The application will be created ${whenSent()}.`);
        const next = nextStep('lawyer', 'personal');
        if (isHere())
          void navigate(next && fillsJourney ? paths.applicationStep.url({ id: localId, step: next }) : paths.applications.url());
      } else if (result.status === 'rejected') {
        // Refused while the user is here: the draft, with the server's messages, comes back to this
        // form; no local application is left behind.
        await moveDraft(user.id, localDraft, NEW_APPLICATION_DRAFT_KEY);
        const { lawyerId: lawyerIdCode, ...fields } = result.fields;
        setLawyerCode(lawyerIdCode);
        form.setServerCodes(fields);
        setBanner({ text: codeMessage(result.error, errorMessages.validation), at: Date.now() });
      } else {
        toast.unhandled();
      }
    } catch {
      toast.unhandled();
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || !form.validation) return;
    form.markSubmitted();
    setSubmitted(true);
    if (!form.validation.success || (choosesLawyer && lawyerId === '')) {
      focusFirstError(formRef.current);
      return;
    }
    void create();
  };

  const Form = def.Form;
  return (
    <Page title="New application">
      <StepBar items={stepBarItems('lawyer', 'new', null, { allDisabled: true })} current="personal" />
      {form.values === null ? (
        <div className="step-form-placeholder" aria-busy="true" />
      ) : (
        <form ref={formRef} className="form wizard-form" noValidate onSubmit={onSubmit}>
          {banner ? (
            <ErrorSummary focusKey={banner.at} fieldsIn={formRef} fieldsKey={[form.errors, lawyerError]}>
              <p>{banner.text}</p>
            </ErrorSummary>
          ) : null}
          {choosesLawyer ? (
            <LawyerChoice
              value={lawyerId}
              onChange={(next) => {
                setLawyerId(next);
                setLawyerCode(undefined);
              }}
              error={lawyerError ? messageForCode(lawyerError) : undefined}
              disabled={busy}
            />
          ) : null}
          <Form
            values={form.values}
            onChange={form.onChange}
            onTouch={form.onTouch}
            errors={form.errors}
            audience="lawyer"
            applicationId={NEW_APPLICATION_DRAFT_KEY}
            disabled={busy}
          />
          <ActionBar className="wizard-actions">
            <p className="sync-state" role="status">
              {form.dirty ? 'Kept on this device, not saved yet' : ''}
            </p>
            <Button type="submit" busy={busy}>
              Save &amp; Continue
            </Button>
          </ActionBar>
        </form>
      )}
    </Page>
  );
}
