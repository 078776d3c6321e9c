import { audienceOf } from '../../../../shared/journey/audience';
import { journeyStepTitle } from '../../../../shared/journey/display';
import { isJourneyStep } from '../../../../shared/journey/steps';
import { paths } from '../../../routing/paths';
import {
  registerDraftPlace,
  registerFilePlace,
  registerWritePlace,
  type Place,
  type PlaceContext,
} from '../../../offline/attention';
import type { CreateApplicationPayload } from './create-application';
import type { SaveStepPayload } from './save-step-mutation';
import type { SubmitApplicationPayload } from './submit-application-mutation';
import { isLocalApplicationId, SUBMIT_DRAFT_KIND } from './application-ids';

/**
 * Where the application's drafts, writes and files are seen and fixed, for the list of what waits
 * on the device (offline/attention.ts, decision 342).
 */

/** The draft key of the new application form (new-application-page.tsx). */
const NEW_APPLICATION_KIND = 'new-application';
/** The asset step holds the documents and the assets' files. */
const FILES_STEP = 'asset';

function applicationName(id: string): string {
  return isLocalApplicationId(id) ? 'New application (not on the server yet)' : `Application ${id}`;
}

function stepPlace(applicationId: string, step: string, { role }: PlaceContext): Place | null {
  if (step !== 'summary' && !isJourneyStep(step)) return null;
  return {
    label: `${applicationName(applicationId)}: ${journeyStepTitle(step, audienceOf(role))}`,
    href: paths.applicationStep.url({ id: applicationId, step }),
  };
}

registerDraftPlace('application', ([applicationId, step], context) =>
  applicationId && step ? stepPlace(applicationId, step, context) : null,
);

registerDraftPlace(SUBMIT_DRAFT_KIND, ([applicationId]) =>
  applicationId
    ? {
        label: `${applicationName(applicationId)}: submit`,
        href: paths.applicationStep.url({ id: applicationId, step: 'summary' }),
      }
    : null,
);

registerDraftPlace(NEW_APPLICATION_KIND, () => ({ label: 'New application', href: paths.newApplication.url() }));

registerWritePlace<SaveStepPayload>('saveStep', (payload, context) =>
  stepPlace(String(payload.applicationId), payload.step, context),
);

registerWritePlace<SubmitApplicationPayload>('submitApplication', ({ applicationId }) => ({
  label: `${applicationName(String(applicationId))}: submit`,
  href: paths.applicationStep.url({ id: applicationId, step: 'summary' }),
}));

registerWritePlace<CreateApplicationPayload>('createApplication', ({ localId, personal }) => {
  const names = personal as { firstName?: unknown; lastName?: unknown };
  const name = [names.firstName, names.lastName].filter((part) => typeof part === 'string' && part !== '').join(' ');
  return {
    label: name ? `New application for ${name}` : 'New application',
    href: paths.applicationStep.url({ id: localId, step: 'personal' }),
  };
});

registerWritePlace('uploadFile', () => ({ label: 'A file to upload', href: paths.applications.url() }));
registerWritePlace('deleteFile', () => ({ label: 'A file to remove', href: paths.applications.url() }));

registerFilePlace((file, context) => stepPlace(file.owner, FILES_STEP, context));
