import { useAtomValue } from 'jotai';
import { Navigate } from 'react-router-dom';
import { applicationStatuses } from '../../../../shared/rules/statuses';
import { paths } from '../../../routing/paths';
import { sessionUserAtom } from '../../../session/session';
import type { Application } from '../applications-api';
import { KeyFigures, PdfButton } from './application-summary';
import { ClientActions } from './client-actions';
import { ContractDocuments } from './contract-documents';
import { FileList } from './file-list';
import { detailsAbilities } from './review-abilities';
import { SignedDocuments } from './signed-documents';

/**
 * The lawyer's and the client's shortened details screen: the status and key figures, the files
 * (the server leaves out the two staff-only types), and for the client, once accepted, 'view
 * documents and get independent advice', 'sign documents' when notified, 'i no longer wish to
 * proceed' while they may still decide, and 'Download signed docs' once signing made the loan.
 * An application still at its first status ('started') has nothing to show yet: /applications.
 */
export function MemberView({ application }: { application: Application }) {
  const user = useAtomValue(sessionUserAtom);
  if (application.status === applicationStatuses[0]) return <Navigate to={paths.applications.url()} replace />;
  const abilities = detailsAbilities(application);
  const client = user?.role === 'customer';
  return (
    <div className="details details--member">
      <KeyFigures application={application} />
      <div className="details-actions">
        <PdfButton applicationId={application.id} />
      </div>
      <section className="details-section" aria-labelledby="details-files-title">
        <h2 id="details-files-title" className="details-section__title">
          Files
        </h2>
        <FileList applicationId={application.id} files={application.files} />
      </section>
      {client && (abilities.withdraw || abilities.sign) ? <ContractDocuments applicationId={application.id} /> : null}
      {client && application.loanId !== null ? <SignedDocuments applicationId={application.id} /> : null}
      {client ? <ClientActions applicationId={application.id} sign={abilities.sign} withdraw={abilities.withdraw} /> : null}
    </div>
  );
}
