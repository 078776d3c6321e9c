import { Link, useParams } from 'react-router-dom';
import { paths } from '../../routing/paths';
import { Page } from '../../ui/page';

interface NotificationProps {
  heading: string;
  text: string;
  button: string;
}

/** Where an application email lands: heading, text and a button to the application's details. */
function Notification({ heading, text, button }: NotificationProps) {
  const { id = '' } = useParams();
  return (
    <Page title={heading}>
      <p>{text}</p>
      <p className="page__cta">
        <Link className="button button--primary" to={paths.applicationDetails.url({ id })}>
          {button}
        </Link>
      </p>
    </Page>
  );
}

/** /applications/:id/application-provider-accepted-lawyer */
export function AcceptedLawyerPage() {
  return (
    <Notification
      heading="Application accepted"
      text="The application has been accepted. You can now view the documents."
      button="View documents"
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
    />
  );
}
