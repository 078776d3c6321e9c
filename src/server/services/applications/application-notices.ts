import type { Config } from '../../config';
import type { Database } from '../../db/connection';
import { formatApplicationId, shortName } from '../../../shared/rules/formats';
import type { ApplicationStatus } from '../../../shared/rules/statuses';
import { notifyByPush } from '../../push/notify';
import { tellParties } from '../loans/loan-parties';

interface NoticeApplication {
  id: number;
  name: string;
  surname: string;
}

/** 'application A-000012 (C. Jones)': the case as the lists show it. */
function caseOf(application: NoticeApplication): string {
  return `application ${formatApplicationId(application.id)} (${shortName(application.name, application.surname)})`;
}

/**
 * The emails of the provider's review and the client's withdrawal (docs/decisions.md 275), written
 * to the outbox in the change's transaction and recorded against the application: accepted → the
 * lawyer and the client, each with the link of their own 'accepted' page; rejected → the lawyer and
 * the client; the client's 'no longer wish to proceed' → the lawyer and the provider's staff (the
 * brand's address, as the loan notices). Other statuses send nothing from here (submitting has no
 * email; the e-signature steps send their own). Each in the words of its reader (decision 450):
 * the client reads of 'your application', the lawyer of 'your client's application'.
 */
export async function tellStatusChange(
  db: Database,
  config: Config,
  application: NoticeApplication,
  to: ApplicationStatus,
  reason: string | undefined,
): Promise<void> {
  const what = caseOf(application);
  const own = `your application ${formatApplicationId(application.id)}`;
  const because = reason ? ` Reason given: ${reason}` : '';
  const details = `/applications/${application.id}/details`;
  // Push (docs/decisions.md 683): staff of a submission, the lawyer of the provider's decision.
  if (to === 'submitted') await notifyByPush(db, { kind: 'application-submitted', applicationId: application.id });
  if (to === 'providerAccepted') await notifyByPush(db, { kind: 'application-accepted', applicationId: application.id });
  if (to === 'providerRejected') await notifyByPush(db, { kind: 'application-rejected', applicationId: application.id });
  if (to === 'providerAccepted') {
    await tellParties(db, config, application.id, ['lawyer'], () => ({
      subject: `Your client’s ${what} has been accepted`,
      heading: 'The application has been accepted',
      body: `The provider has accepted your client’s ${what}. Your client will now review the contract documents and obtain independent legal advice.`,
      action: 'Open application',
      path: `/applications/${application.id}/application-provider-accepted-lawyer`,
    }));
    await tellParties(db, config, application.id, ['customer'], () => ({
      subject: 'Your application has been accepted',
      heading: 'Your application has been accepted',
      body: `The provider has accepted ${own}. Please review the contract documents and obtain independent legal advice; we will then prepare the documents for you to sign.`,
      action: 'Open application',
      path: `/applications/${application.id}/application-provider-accepted-customer`,
    }));
  } else if (to === 'providerRejected') {
    await tellParties(db, config, application.id, ['lawyer', 'customer'], (reader) =>
      reader === 'customer'
        ? {
            subject: 'Your application has been rejected',
            heading: 'Your application has been rejected',
            body: `The provider has rejected ${own}. Your lawyer can tell you more.${because}`,
            action: 'Open application',
            path: details,
          }
        : {
            subject: `Your client’s ${what} has been rejected`,
            heading: 'The application has been rejected',
            body: `The provider has rejected your client’s ${what}.${because}`,
            action: 'Open application',
            path: details,
          },
    );
  } else if (to === 'customerRejected') {
    await tellParties(db, config, application.id, ['lawyer', 'admin'], (reader) =>
      reader === 'lawyer'
        ? {
            subject: `Your client no longer wishes to proceed with ${what}`,
            heading: 'Your client no longer wishes to proceed',
            body: `Your client has chosen not to proceed with ${what}.${because}`,
            action: 'Open application',
            path: details,
          }
        : {
            subject: `The client no longer wishes to proceed with ${what}`,
            heading: 'The client no longer wishes to proceed',
            body: `The client has chosen not to proceed with ${what}.${because}`,
            action: 'Open application',
            path: details,
          },
    );
  }
}
