import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Navigate, useParams } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import type { FormStep, Journey, JourneyStep } from '../../../../shared/journey/steps';
import type { ApplicationStatus } from '../../../../shared/rules/statuses';
import type { components } from '../../../../shared/api/schema';
import { formatApplicationId, formatDateTime, shortName } from '../../../../shared/rules/formats';
import { parseRecordId } from '../../../../shared/rules/record-id';
import { paths } from '../../../routing/paths';
import NotFoundPage from '../../../routing/not-found-page';
import { sessionUserAtom } from '../../../session/session';
import { useCachedQuery } from '../../../offline/cache';
import { useDraftStatus } from '../../../offline/drafts';
import { ReadStatus } from '../../../offline/read-status';
import { isLocalApplicationId, stepDraftKey, submitRefusalKey, useResolvedApplicationId } from '../offline/application-ids';
import { Page } from '../../../ui/page';
import { PageSpinner } from '../../../ui/spinner';
import { fetchApplication, isNotFound } from '../applications-api';
import { usePendingCreate, usePendingSteps } from '../offline/pending-creates';
import { StepBar } from './step-bar';
import { StepFormView } from './step-form-view';
import { stepDefinitions } from './steps/registry';
import { SummaryStep } from './summary-step';
import { useLiveFormEFiles, withLiveDocuments } from './live-journey';
import { useJustSentSteps } from './just-sent-steps';
import type { Audience } from './steps/step-definition';
import { isFormStep, overlayJourney, redirectFor, stepBarItems, stepsFor, stepTitle, type JourneyVersions } from './use-journey';
import { journeyEditable, RESUME_STEP, wizardAudience } from './wizard-routes';
import '../../../ui/record-list.css';
import './step-form.css';
import './wizard.css';

type ApplicationAbilities = components['schemas']['ApplicationAbilities'];
type FileRecord = components['schemas']['FileRecord'];

/** What the wizard needs of an application, from the server (or its saved copy) or the outbox. */
interface WizardApplication {
  id: number | string;
  name: string;
  surname: string;
  status: ApplicationStatus;
  journey: Journey;
  versions: JourneyVersions;
  savedAt: number | null;
  /** Whether the caller may still change the journey: the server's word (`abilities`) where it has one. */
  editable: boolean;
  /** What the caller may do, as the server said (absent for an application not on the server yet). */
  abilities?: ApplicationAbilities;
  /** The application's live files, as the server listed them (none for one not on the server yet). */
  files: readonly FileRecord[];
}

type Loaded =
  | { state: 'loading' }
  | { state: 'notFound' }
  | { state: 'failed'; error: unknown }
  | { state: 'ready'; application: WizardApplication; reload?: () => void };

function useServerApplication(id: string | null): Loaded {
  const numeric = parseRecordId(id);
  const valid = numeric !== null;
  const fetcher = useCallback(() => fetchApplication(numeric ?? 0), [numeric]);
  const query = useCachedQuery(valid ? `application:${numeric}` : null, fetcher);
  if (id === null) return { state: 'loading' };
  if (!valid) return { state: 'notFound' };
  if (query.data) {
    const data = query.data;
    return {
      state: 'ready',
      application: {
        id: data.id,
        name: data.name,
        surname: data.surname,
        status: data.status,
        journey: data.journey,
        versions: data.journeyVersions,
        savedAt: query.fromCache && query.savedAt ? Number(new Date(query.savedAt)) : null,
        editable: journeyEditable(data),
        ...(data.abilities ? { abilities: data.abilities } : {}),
        files: data.files,
      },
      reload: query.reload,
    };
  }
  if (query.error) return isNotFound(query.error) ? { state: 'notFound' } : { state: 'failed', error: query.error };
  return { state: 'loading' };
}

/** An application created on this device, not yet on the server: its data is the waiting create. */
function useLocalApplication(id: string | null): Loaded {
  const pending = usePendingCreate(id);
  if (id === null || !pending.loaded) return { state: 'loading' };
  if (!pending.create) return { state: 'notFound' };
  const { name, surname, refused } = pending.create;
  // A refused create keeps the form's values (its draft), not yet the step's journey data.
  const draft = refused ? stepDefinitions.personal.parseDraft(pending.create.personal) : null;
  const personal = refused ? (draft ? stepDefinitions.personal.toJourney(draft) : {}) : pending.create.personal;
  return {
    state: 'ready',
    // Not on the server yet: the creator's own new application, editable until it is sent and answered.
    application: {
      id,
      name,
      surname,
      status: 'incomplete',
      journey: { personal } as Journey,
      versions: {},
      savedAt: null,
      editable: true,
      files: [],
    },
  };
}

/**
 * /applications/:id/:step (updateApplication): the lawyer's wizard and the client's form. Other
 * roles and unknown steps go to /applications; a finished application to its details.
 */
export default function ApplicationStepPage() {
  const user = useAtomValue(sessionUserAtom);
  const { id = '', step = '' } = useParams();
  const audience = user ? wizardAudience(user.role) : null;
  if (!audience || (step !== RESUME_STEP && !isFormStep(audience, step))) {
    return <Navigate to={paths.applications.url()} replace />;
  }
  return <Wizard key={id} routeId={id} step={step} audience={audience} />;
}

function Wizard({ routeId, step, audience }: { routeId: string; step: string; audience: Audience }) {
  const resolved = useResolvedApplicationId(routeId);
  const local = isLocalApplicationId(routeId);
  const server = useServerApplication(local ? null : routeId);
  const pending = useLocalApplication(local ? routeId : null);
  const loaded = local ? pending : server;
  // Read before the step is checked: a step saved offline and still queued counts as done, so a
  // page opened offline at the next step is not sent back to it.
  const pendingSteps = usePendingSteps(routeId);
  // A refused save of this step (or submit, on the summary) is shown where it was made until it is
  // read, even once the application has moved on and can no longer be changed (decision 438).
  const refusal = useDraftStatus(step === 'summary' ? submitRefusalKey(routeId) : stepDraftKey(routeId, step));
  /** Steps saved on this screen since the application was loaded. */
  const [saved, setSaved] = useState<{ journey: Partial<Journey>; versions: JourneyVersions }>({ journey: {}, versions: {} });

  const application = loaded.state === 'ready' ? loaded.application : null;
  const reload = loaded.state === 'ready' ? loaded.reload : undefined;
  const liveFiles = useLiveFormEFiles(routeId, application?.files);
  // The journey's object stands for one read of the application (the page's object is made anew each render).
  const justSent = useJustSentSteps(pendingSteps, application?.journey ?? null, reload);
  // The saved journey and what is queued, naming only files that are really there (decision 330).
  const stored = useMemo(
    () => (application && pendingSteps ? overlayJourney(application.journey, justSent, pendingSteps, saved.journey) : null),
    [application, justSent, pendingSteps, saved.journey],
  );
  const journey = useMemo(() => (stored ? withLiveDocuments(stored, liveFiles) : null), [stored, liveFiles]);

  // Files may have been added or deleted on the documents step: leaving it reads the server's list again.
  const previousStep = useRef(step);
  useEffect(() => {
    if (previousStep.current === 'asset' && step !== 'asset') reload?.();
    previousStep.current = step;
  }, [step, reload]);

  const onSaved = useCallback((savedStep: JourneyStep, data: unknown, version: number | null) => {
    setSaved((current) => ({
      journey: { ...current.journey, [savedStep]: data },
      versions: version === null ? current.versions : { ...current.versions, [savedStep]: version },
    }));
  }, []);

  // The create has gone through: the application lives at its server id now.
  if (local && resolved !== routeId && resolved !== null) {
    return <Navigate to={paths.applicationStep.url({ id: resolved, step })} replace />;
  }
  if (loaded.state === 'notFound') return <NotFoundPage />;
  if (loaded.state === 'failed') {
    return (
      <Page title="Application">
        <ReadStatus read={{ data: undefined, savedAt: undefined, fromCache: false, error: loaded.error }} />
      </Page>
    );
  }
  if (!application || !journey) return <PageSpinner />;
  if (!application.editable && refusal !== 'rejected') {
    if (refusal === undefined) return <PageSpinner />;
    return <Navigate to={paths.applicationDetails.url({ id: application.id })} replace />;
  }
  const redirect = redirectFor(audience, step, journey);
  if (redirect) return <Navigate to={paths.applicationStep.url({ id: routeId, step: redirect })} replace />;

  const current = step as FormStep;
  const steps = stepsFor(audience);
  const versions = { ...application.versions, ...saved.versions };
  const items = stepBarItems(audience, routeId, journey);
  const name = shortName(application.name, application.surname);
  const caption = [name, formatApplicationId(application.id)].filter(Boolean).join(' · ');

  return (
    <Page title={stepTitle(audience, current)} documentTitle="Application">
      <p className="wizard-caption">{caption}</p>
      <StepBar items={items} current={current} />
      <p className="list-note" role="status">
        {application.savedAt ? `Saved copy from ${formatDateTime(application.savedAt)}` : ''}
        {local ? 'Waiting for a connection: the application will be created when the connection returns.' : ''}
      </p>
      {current === 'summary' ? (
        <SummaryStep
          applicationId={routeId}
          audience={audience}
          steps={steps}
          journey={journey}
          fileNames={liveFiles}
          // Not on the server yet (or a copy from before abilities): the creator's own, submit is offered.
          canSubmit={application.abilities?.submit ?? true}
        />
      ) : (
        <StepFormView
          key={current}
          applicationId={routeId}
          step={current}
          audience={audience}
          // What was last saved or queued (a save still in the outbox counts): a step reopened with
          // its queued values is not 'dirty', so leaving it does not say the changes will be lost.
          serverData={journey[current] as Journey[JourneyStep] | undefined}
          serverVersion={versions[current] ?? 0}
          queued={current in (pendingSteps ?? {})}
          // As stored, deleted files included: leaving the documents step stores the list when it differs.
          storedData={stored?.[current] as Journey[JourneyStep] | undefined}
          abilities={application.abilities}
          onSaved={onSaved}
        />
      )}
    </Page>
  );
}
