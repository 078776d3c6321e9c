import { issueDownloadLink, type DownloadLink } from '../../files/download-tokens';
import { applicationPdfFileName } from '../../pdf/application-pdf';
import { findApplication } from '../applications/find-application';
import type { ServiceContext } from '../context';
import { audienceOf } from '../../../shared/journey/audience';

/** GET /pdf-generator/for-application-json/{id}: a link; the PDF is made when the link is opened. */
export async function applicationPdfLink(
  { db, actor }: ServiceContext,
  input: { applicationId: number; variant: 'full' | 'summary' },
): Promise<DownloadLink> {
  const { applicationId, variant } = input;
  await findApplication(db, actor, applicationId);
  return issueDownloadLink(
    db,
    actor,
    { kind: 'applicationPdf', applicationId, variant, audience: audienceOf(actor.role) },
    applicationPdfFileName(applicationId, variant),
  );
}
