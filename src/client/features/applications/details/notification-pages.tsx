import { useCallback } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { parseRecordId } from '../../../../shared/rules/record-id';
import { awaitsIndependentAdvice, isPrepareStatus } from '../../../../shared/rules/review';
import { applicationStatusLabels, type ApplicationStatus } from '../../../../shared/rules/statuses';
import { useCachedQuery } from '../../../offline/cache';
import { paths } from '../../../routing/paths';
import { sessionUserAtom } from '../../../session/session';
import { Page } from '../../../ui/page';
import { fetchApplication, type Application } from '../applications-api';
import { hasContractDocuments } from './contract-files';
import { nextStepsText } from './next-steps';

/** The button when the email's own button would promise what the details no longer offer. */
export const VIEW_APPLICATION = 'View application';
export const MOVED_ON = 'Since this email was sent, the application has moved on.';
export const DOCUMENTS_NOT_READY = 'The documents are not ready yet. You will receive an email once they are.';

interface NotificationProps {
  heading: string;
  text: string;
  button: string;
  /** The moment the email speaks of still holds (else the page says the application moved on). */
  current: (application: Application) => boolean;
  /** The button leads to documents: it is offered only once the application holds some. */
  documents: boolean;
}

/**
 * Where an application email lands: heading, text and a button to the application's details. The
 * button says what the details page offers now (decision 446): an email read after the application
 * moved on (the certificate of advice received since the 'accepted' email, say), or a button to
 * documents that do not exist yet, gets 'View application' and a line saying why. While the
 * application cannot be read (offline without a saved copy), the page is the email's.
 */
function Notification({ heading, text, button, current, documents }: NotificationProps) {
  const user = useAtomValue(sessionUserAtom);
  const { id = '' } = useParams();
  const applicationId = parseRecordId(id);
  const fetcher = useCallback(() => fetchApplication(applicationId ?? 0), [applicationId]);
  const { data: application } = useCachedQuery(applicationId === null ? null : `application:${applicationId}`, fetcher);
  const movedOn = application ? !current(application) : false;
  const missing = application && !movedOn && documents ? !hasContractDocuments(application) : false;
  const reader = user?.role === 'customer' ? 'customer' : user?.role === 'lawyer' ? 'lawyer' : null;
  const now =
    application && movedOn
      ? ((reader ? nextStepsText(reader, application) : null) ?? `It is now ‘${applicationStatusLabels[application.status]}’.`)
      : null;
  return (
    <Page title={heading}>
      <p>{text}</p>
      {movedOn ? (
        <p className="notification-now">
          {MOVED_ON} {now}
        </p>
      ) : missing ? (
        <p className="notification-now">{DOCUMENTS_NOT_READY}</p>
      ) : null}
      <p className="page__cta">
        <Link className="button button--primary" to={paths.applicationDetails.url({ id })}>
          {movedOn || missing ? VIEW_APPLICATION : button}
        </Link>
      </p>
    </Page>
  );
}

const signedStatuses: readonly ApplicationStatus[] = ['esignComplete', 'customerAccepted', 'approved'];

/** /applications/:id/application-provider-accepted-lawyer */
export function AcceptedLawyerPage() {
  return (
    <Notification
      heading="Application accepted"
      text="The application has been accepted. You can now view the documents."
      button="View documents"
      current={(application) => isPrepareStatus(application.status)}
      documents
    />
  );
}

/** /applications/:id/application-provider-accepted-customer */
export function AcceptedCustomerPage() {
  return (
    <Notification
      heading="Application accepted"
      text="Your application has been accepted. Please view the documents and get independent legal advice."
      button="view documents and get independent advice"
      current={awaitsIndependentAdvice}
      documents
    />
  );
}

/** /applications/:id/application-esign-prepared */
export function EsignPreparedPage() {
  return (
    <Notification
      heading="Documents ready to sign"
      text="The independent advice certificate was received. You can now view and sign the documents."
      button="View documents"
      current={(application) => application.status === 'esignPrepared' || application.status === 'customerNotified'}
      documents
    />
  );
}

/**
 * /applications/:id/application-customer-accepted-provider: the client's page once they have signed
 * (their email links here: docs/decisions.md 289).
 */
export function CustomerAcceptedProviderPage() {
  return (
    <Notification
      heading="Documents signed"
      text="You have signed the documents and accepted the terms. A loan has been created for this application."
      button="View documents"
      current={(application) => signedStatuses.includes(application.status)}
      documents
    />
  );
}

/** /applications/:id/application-customer-accepted-lawyer */
export function CustomerAcceptedLawyerPage() {
  return (
    <Notification
      heading="Loan created"
      text="Your client has signed the documents. A loan has been created for this application."
      button="View documents"
      current={(application) => signedStatuses.includes(application.status)}
      documents
    />
  );
}
