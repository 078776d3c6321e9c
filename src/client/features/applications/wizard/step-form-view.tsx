import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { validateStep } from '../../../../shared/journey/validate';
import type { FormStep, Journey, JourneyStep } from '../../../../shared/journey/steps';
import { displayValue } from '../../../../shared/journey/display';
import { fieldLabel } from '../../../../shared/journey/labels';
import { whenSent } from '../../../offline/when-sent';
import { paths } from '../../../routing/paths';
import { useStillHere } from '../../../routing/still-here';
import { useLeaveConfirmation } from '../../../routing/leave-confirmation';
import { Button } from '../../../ui/button';
import { ActionBar } from '../../../ui/action-bar';
import { ErrorSummary } from '../../../ui/error-summary';
import { useToast } from '../../../ui/toast-store';
import { stepDraftKey } from '../offline/application-ids';
import { enqueue } from '../../../offline/outbox';
import { ConflictDialog } from './conflict-dialog';
import { conflictingStepData, saveStep, savedStepData } from './save-step';
import { documentsForLeave, type AssetStepValues } from './steps/asset-step';
import { stepDefinitions } from './steps/registry';
import type { Audience, StepDefinition, StepFormProps } from './steps/step-definition';
import { nextStep } from './use-journey';
import { focusFirstError } from '../../../ui/action-bars';
import { useStepForm } from './use-step-form';
import { withoutOtherPartyAnswers } from '../../../../shared/journey/ownership';
import { RefusalWords } from './refusal-words';

type Data = Record<string, unknown>;

export interface SyncLabel {
  state: 'saved' | 'device' | 'waiting' | 'rejected' | 'conflict';
  text: string;
}

interface StepFormViewProps {
  applicationId: number | string;
  step: JourneyStep;
  audience: Audience;
  serverData: Journey[JourneyStep] | undefined;
  serverVersion: number;
  /** A save of this step is still in the outbox. */
  queued: boolean;
  /** The step as stored (files since deleted still named); `serverData` names the live ones only. */
  storedData?: Journey[JourneyStep] | undefined;
  /** What the caller may do with the application, as the server said (absent: not on the server yet). */
  abilities?: StepFormProps<unknown>['abilities'];
  /** The step was saved: the wizard lays it over the journey (step bar, locking). */
  onSaved: (step: JourneyStep, data: unknown, version: number | null) => void;
}

/** A save the server refused: its code, and what it said about it (ErrorDetails); `at` tells refusals apart. */
interface Refusal {
  code: string;
  details?: unknown;
  at: number;
}

function syncLabel(
  refusal: Refusal | null,
  status: string | undefined,
  dirty: boolean,
  queued: boolean,
  saved: boolean,
): SyncLabel | null {
  if (status === 'conflict') return { state: 'conflict', text: 'Changed by someone else: choose what to keep' };
  if (refusal || status === 'rejected')
    return refusal && refusal.code !== 'validation'
      ? { state: 'rejected', text: 'Not saved: see the message at the top of the step' }
      : { state: 'rejected', text: 'Not accepted: please check the highlighted fields' };
  if (queued || status === 'queued') return { state: 'waiting', text: 'Waiting for a connection' };
  if (dirty) return { state: 'device', text: 'Kept on this device, not saved yet' };
  if (saved) return { state: 'saved', text: 'Saved' };
  return null;
}

/**
 * One journey step of the wizard: its form with the device's draft, 'Save & Continue' through the
 * outbox, the server's messages after a refused save, and the field-by-field choice after a conflict.
 */
export function StepFormView({
  applicationId,
  step,
  audience,
  serverData,
  serverVersion,
  queued,
  storedData,
  abilities,
  onSaved,
}: StepFormViewProps) {
  // The registry's values type is `any` per step; one step's definition is used consistently here.
  const def = stepDefinitions[step] as StepDefinition<JourneyStep, unknown>;
  const draftKey = stepDraftKey(applicationId, step);
  const form = useStepForm({ def, draftKey, serverData, serverVersion, audience });
  const navigate = useNavigate();
  const stillHere = useStillHere();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [discarded, setDiscarded] = useState(false);
  const [conflict, setConflict] = useState<{ data: Data; version: number } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const leavingBySave = useRef(false);

  useLeaveConfirmation(form.dirty, busy, { keptOnDevice: form.keptOnDevice });

  // A save refused or in conflict while this device was away: shown when the step opens.
  const record = form.draft.draft;
  useEffect(() => {
    if (record?.status === 'rejected')
      setRefusal(
        (current) => current ?? { code: record.serverError ?? 'validation', details: record.serverDetails, at: record.updatedAt },
      );
    if (record?.status === 'conflict' && record.conflict) {
      setConflict({ data: conflictingStepData(record.conflict, step), version: record.conflict.version });
    }
  }, [record?.status, record?.conflict, record?.serverError, record?.serverDetails, record?.updatedAt, step]);

  // Spec: "Leaving the documents step first stores the list of uploaded files." Compared with the
  // step as stored, so a file deleted here leaves the stored list too (decision 330).
  const valuesRef = useRef(form.values);
  valuesRef.current = form.values;
  const storedRef = useRef(storedData ?? serverData);
  storedRef.current = storedData ?? serverData;
  useEffect(() => {
    if (step !== 'asset') return;
    return () => {
      const values = valuesRef.current as AssetStepValues | null;
      if (leavingBySave.current || !values) return;
      const data = documentsForLeave(values, storedRef.current as Journey['asset']);
      if (!data || !validateStep('asset', data, { audience, today: new Date() }).success) return;
      void enqueue({ kind: 'saveStep', applicationId, step: 'asset', baseVersion: serverVersion, data })
        .then(() => onSaved('asset', data, null))
        .catch(() => undefined);
    };
    // Once per step: the cleanup reads the latest values through the ref.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [step, applicationId]);

  useEffect(() => {
    if (discarded && !form.dirty) void navigate(paths.applicationDetails.url({ id: applicationId }));
  }, [discarded, form.dirty, navigate, applicationId]);

  /** After a save, unless the user went elsewhere while it waited for its answer. */
  const goNext = (isHere: () => boolean) => {
    if (!isHere()) return;
    const next: FormStep | null = nextStep(audience, step);
    leavingBySave.current = true;
    void navigate(next ? paths.applicationStep.url({ id: applicationId, step: next }) : paths.applications.url());
  };

  const send = async (data: unknown, baseVersion: number) => {
    const values = form.values;
    setBusy(true);
    setRefusal(null);
    const isHere = stillHere();
    try {
      // The other party's answers (the lawyer's consent and authority) are theirs: the server keeps them.
      const own = withoutOtherPartyAnswers(step, audience, data);
      const result = await saveStep({ applicationId, step, baseVersion, data: own, draftKey });
      switch (result.status) {
        case 'done':
          form.markSaved(values);
          onSaved(step, savedStepData(result.body, step) ?? data, result.version ?? null);
          goNext(isHere);
          return;
        case 'queued':
          form.markSaved(values);
          onSaved(step, data, null);
          toast.notify(`Saved on this device. It will be sent ${whenSent()}.`);
          goNext(isHere);
          return;
        case 'rejected':
          // Said at the top of the step, focused (the summary), with the fields it names listed.
          form.setServerCodes(result.fields);
          setRefusal({ code: result.error, details: result.details, at: Date.now() });
          return;
        case 'conflict':
          setConflict({ data: conflictingStepData(result.current, step), version: result.current.version });
          return;
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
    if (!form.validation.success) {
      focusFirstError(formRef.current);
      return;
    }
    void send(form.validation.output, form.baseVersion);
  };

  const resolveConflict = (merged: Data) => {
    if (!conflict) return;
    const values = def.fromJourney(merged as never);
    form.replaceValues(values, conflict.version);
    const version = conflict.version;
    setConflict(null);
    const checked = validateStep(step, def.toJourney(values), { audience, today: new Date() });
    if (!checked.success) {
      form.markSubmitted();
      return;
    }
    void send(checked.output, version);
  };

  if (!form.loaded || form.values === null) return <div className="step-form-placeholder" aria-busy="true" />;

  const label = syncLabel(refusal, record?.status, form.dirty, queued, serverVersion > 0);
  const Form = def.Form;
  const discard = async () => {
    const values = form.values;
    await form.draft.clear();
    // Nothing left to lose: the leave question is not asked, and the application's details open.
    if (values !== null) form.markSaved(values);
    setDiscarded(true);
  };
  return (
    <form ref={formRef} className="form wizard-form" noValidate onSubmit={onSubmit}>
      {refusal ? (
        <ErrorSummary
          focusKey={refusal.at}
          fieldsIn={formRef}
          fieldsKey={form.errors}
          actions={
            refusal.code === 'notEditable' ? (
              <>
                <Link to={paths.applicationDetails.url({ id: applicationId })}>View the application</Link>
                <Button variant="link" onClick={() => void discard()}>
                  Discard my changes to this step
                </Button>
              </>
            ) : null
          }
        >
          <RefusalWords code={refusal.code} details={refusal.details} audience={audience} write="save" />
        </ErrorSummary>
      ) : null}
      <Form
        values={form.values}
        onChange={form.onChange}
        onTouch={form.onTouch}
        errors={form.errors}
        audience={audience}
        applicationId={applicationId}
        disabled={busy}
        abilities={abilities}
      />
      <ActionBar className="wizard-actions">
        <p className={`sync-state${label ? ` sync-state--${label.state}` : ''}`} role="status">
          {label?.text ?? ''}
        </p>
        <Button type="submit" busy={busy}>
          Save &amp; Continue
        </Button>
      </ActionBar>
      {conflict ? (
        <ConflictDialog
          open
          mine={(form.journeyData ?? {}) as Data}
          theirs={conflict.data}
          label={(field) => fieldLabel(step, field, audience)}
          display={(field, value) => displayValue(step, field, value)}
          onResolve={resolveConflict}
          onClose={() => setConflict(null)}
        />
      ) : null}
    </form>
  );
}
