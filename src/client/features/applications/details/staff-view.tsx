import type { Application } from '../applications-api';
import type { DocumentType } from '../../../../shared/rules/document-types';
import { LastReminder } from '../../../ui/last-reminder';
import { ClientInvitation } from '../new/client-invitation';
import { JourneySections } from '../wizard/journey-sections';
import { lookupsOf } from '../wizard/live-journey';
import { useSolicitorList } from '../wizard/steps/independent-step';
import { ApplicationEmails } from './application-emails';
import { KeyFigures, PdfButton } from './application-summary';
import { FileList } from './file-list';
import { LawyerInformation } from './lawyer-information';
import { LoanAmount } from './loan-amount';
import { ReviewActions } from './review-actions';
import { detailsAbilities } from './review-abilities';
import { SignedDocuments } from './signed-documents';
import { StaffDocuments } from './staff-documents';

/** The five step summaries of the review screen (spec section 2). */
const reviewSteps = ['personal', 'case', 'financial', 'asset', 'independent'] as const;

/**
 * The provider's review screen (root, admin): the figures and the PDF, 'Lawyer information', the
 * five step summaries as the summary step and the PDF show them, the files (changeable in the review
 * and prepare states), 'Application Emails', the draft loan amount and the workflow of the state,
 * each as the record's abilities allow (hidden when read-only). The decision panel (PDF, loan amount,
 * workflow) comes right after the figures on a phone and stays beside the answers, in view, from 992 px:
 * a reviewer reading a long application never scrolls back to find 'accept' (decision 300).
 */
export function StaffView({
  application,
  offlineCopy,
  onChanged,
}: {
  application: Application;
  offlineCopy: boolean;
  onChanged: () => void;
}) {
  const abilities = detailsAbilities(application);
  const changeable = abilities.changeDocuments as readonly DocumentType[];
  const caseRef = (application.journey.case as { caseRef?: string } | undefined)?.caseRef;
  // The answers name the chosen solicitor and the live Form E files, as the PDF does (decision 333).
  const solicitors = useSolicitorList();
  const formEFiles = new Map<number | string, string>(
    application.files.filter((file) => file.type === 'formE').map((file) => [file.id, file.fileName || file.name]),
  );
  const lookups = lookupsOf(formEFiles, solicitors.data?.items);
  return (
    <div className="details details--staff">
      <KeyFigures application={application} />
      <aside className="details-staff__panel" aria-label="Review">
        <div className="details-actions">
          <PdfButton applicationId={application.id} />
        </div>
        <LastReminder reminder={application.lastReminder} />
        <LoanAmount application={application} editable={abilities.updateLoanAmount} onChanged={onChanged} />
        <ReviewActions application={application} abilities={abilities} offlineCopy={offlineCopy} onChanged={onChanged} />
        {abilities.inviteClient && !offlineCopy ? (
          <ClientInvitation applicationId={application.id} email={application.clientEmail} onSent={onChanged} audience="staff" />
        ) : null}
      </aside>
      <div className="details-staff__answers">
        <LawyerInformation lawyer={application.lawyer} />
        <JourneySections
          journey={application.journey}
          steps={reviewSteps}
          audience="lawyer"
          idPrefix="details"
          lookups={lookups}
        />
        <section className="details-section" aria-labelledby="details-files-title">
          <h2 id="details-files-title" className="details-section__title">
            Files
          </h2>
          {changeable.length > 0 ? (
            <StaffDocuments application={application} changeable={changeable} />
          ) : (
            <FileList applicationId={application.id} files={application.files} />
          )}
        </section>
        {abilities.downloadSignedDocuments ? <SignedDocuments applicationId={application.id} /> : null}
        {abilities.readEmails ? <ApplicationEmails applicationId={application.id} caseRef={caseRef} /> : null}
      </div>
    </div>
  );
}
