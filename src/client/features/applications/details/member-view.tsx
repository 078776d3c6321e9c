import { useAtomValue } from 'jotai';
import { Navigate } from 'react-router-dom';
import { awaitsIndependentAdvice } from '../../../../shared/rules/review';
import { applicationStatuses } from '../../../../shared/rules/statuses';
import { paths } from '../../../routing/paths';
import { sessionUserAtom } from '../../../session/session';
import type { Application } from '../applications-api';
import { KeyFigures, PdfButton } from './application-summary';
import { ClientActions } from './client-actions';
import { ContractDocuments } from './contract-documents';
import { hasContractDocuments } from './contract-files';
import { FileList } from './file-list';
import { nextStepsText } from './next-steps';
import { detailsAbilities } from './review-abilities';
import { SignedDocuments } from './signed-documents';

/**
 * The lawyer's and the client's shortened details screen: the status and key figures, what happens
 * next, the files (the server leaves out the two staff-only types), and for the client, while they
 * may still decide and the documents are there, 'view documents and get independent advice' (or
 * 'View documents' once the certificate of advice is in), 'sign documents' when notified and 'i no
 * longer wish to proceed'; 'Download signed docs' for whoever the record says may (decision 449).
 * Each action shows only when it can do something (decision 446). An application still at its
 * first status ('started') has nothing to show yet: /applications.
 */
export function MemberView({ application }: { application: Application }) {
  const user = useAtomValue(sessionUserAtom);
  if (application.status === applicationStatuses[0]) return <Navigate to={paths.applications.url()} replace />;
  const abilities = detailsAbilities(application);
  const client = user?.role === 'customer';
  const reader = client ? 'customer' : user?.role === 'lawyer' ? 'lawyer' : null;
  const next = reader ? nextStepsText(reader, application) : null;
  return (
    <div className="details details--member">
      <KeyFigures application={application} />
      {next ? (
        <section className="details-section details-next" aria-labelledby="details-next-title">
          <h2 id="details-next-title" className="details-section__title">
            What happens next
          </h2>
          <p className="details-next__text">{next}</p>
        </section>
      ) : null}
      <div className="details-actions">
        <PdfButton applicationId={application.id} />
      </div>
      <section className="details-section" aria-labelledby="details-files-title">
        <h2 id="details-files-title" className="details-section__title">
          Files
        </h2>
        <FileList applicationId={application.id} files={application.files} />
      </section>
      {client && (abilities.withdraw || abilities.sign) && hasContractDocuments(application) ? (
        <ContractDocuments applicationId={application.id} getAdvice={awaitsIndependentAdvice(application)} />
      ) : null}
      {abilities.downloadSignedDocuments ? <SignedDocuments applicationId={application.id} /> : null}
      {client ? <ClientActions applicationId={application.id} sign={abilities.sign} withdraw={abilities.withdraw} /> : null}
    </div>
  );
}
