import { audienceOf } from '../../../../shared/journey/audience';
import { journeyStepTitle } from '../../../../shared/journey/display';
import { isJourneyStep } from '../../../../shared/journey/steps';
import { applicationCheckLabels, type ApplicationCheck } from '../../../../shared/rules/review';
import { formatMoney } from '../../../../shared/rules/formats';
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
import type { ReviewCheckPayload, ReviewDecision, ReviewDecisionPayload, DraftLoanAmountPayload } from './review-mutations';

/**
 * Where the application's drafts, writes and files are seen and fixed, for the list of what waits
 * on the device (offline/attention.ts, decision 342). A waiting write is also listed on the other
 * pages it will change (decision 404): the application's details and the applications list.
 */

/** The draft key of the new application form (new-application-page.tsx). */
const NEW_APPLICATION_KIND = 'new-application';
/** The asset step holds the documents and the assets' files. */
const FILES_STEP = 'asset';

function applicationName(id: string): string {
  return isLocalApplicationId(id) ? 'New application (not on the server yet)' : `Application ${id}`;
}

/** The pages that show an application: its details (once on the server) and the list. */
function applicationPages(applicationId: string): string[] {
  return isLocalApplicationId(applicationId)
    ? [paths.applications.url()]
    : [paths.applicationDetails.url({ id: applicationId }), paths.applications.url()];
}

function stepPlace(applicationId: string, step: string, { role }: PlaceContext): Place | null {
  if (step !== 'summary' && !isJourneyStep(step)) return null;
  return {
    label: `${applicationName(applicationId)}: ${journeyStepTitle(step, audienceOf(role))}`,
    href: paths.applicationStep.url({ id: applicationId, step }),
    pages: applicationPages(applicationId),
  };
}

/** Staff's review decisions are made and fixed on the details page (decision 305). */
function reviewPlace(applicationId: unknown, what: string): Place | null {
  if (applicationId === undefined || applicationId === '') return null;
  const id = String(applicationId);
  return {
    label: `${applicationName(id)}: ${what}`,
    href: paths.applicationDetails.url({ id }),
    pages: [paths.applications.url()],
  };
}

/** The words of the review screen's buttons (details/review-actions.tsx). */
const decisionLabels: Record<ReviewDecision, string> = {
  accept: 'accept',
  reject: 'reject',
  prepareEnvelope: 'prepare docusign',
  notifyClient: 'Notify client',
};

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
  pages: applicationPages(String(applicationId)),
}));

registerWritePlace<CreateApplicationPayload>('createApplication', ({ localId, personal }) => {
  const names = personal as { firstName?: unknown; lastName?: unknown };
  const name = [names.firstName, names.lastName].filter((part) => typeof part === 'string' && part !== '').join(' ');
  return {
    label: name ? `New application for ${name}` : 'New application',
    href: paths.applicationStep.url({ id: localId, step: 'personal' }),
    pages: [paths.applications.url()],
  };
});

registerWritePlace('uploadFile', () => ({ label: 'A file to upload', href: paths.applications.url() }));
registerWritePlace('deleteFile', () => ({ label: 'A file to remove', href: paths.applications.url() }));

registerFilePlace((file, context) => stepPlace(file.owner, FILES_STEP, context));

registerDraftPlace('application-check', ([applicationId, check]) =>
  reviewPlace(applicationId, applicationCheckLabels[check as ApplicationCheck] ?? 'review check'),
);
registerDraftPlace('application-decision', ([applicationId]) => reviewPlace(applicationId, 'review decision'));
registerDraftPlace('application-loan-amount', ([applicationId]) => reviewPlace(applicationId, 'loan amount'));
registerWritePlace<ReviewCheckPayload>('reviewCheck', ({ applicationId, check }) =>
  reviewPlace(applicationId, applicationCheckLabels[check] ?? 'review check'),
);
registerWritePlace<ReviewDecisionPayload>('reviewDecision', ({ applicationId, decision }) =>
  reviewPlace(applicationId, decisionLabels[decision] ?? 'review decision'),
);
registerWritePlace<DraftLoanAmountPayload>('draftLoanAmount', ({ applicationId, amount }) =>
  reviewPlace(applicationId, typeof amount === 'number' ? `loan amount ${formatMoney(amount)}` : 'loan amount'),
);
