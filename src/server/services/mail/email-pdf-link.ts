import { issueDownloadLink, type DownloadLink } from '../../files/download-tokens';
import { AppError } from '../../errors/app-error';
import type { ServiceContext } from '../context';
import { formatApplicationId } from '../../../shared/rules/formats';
import { findApplicationEmail } from './email-record';

/**
 * GET /pdf-generator/from-email: a short-lived link to a PDF of one stored email of the application
 * (staff only; the PDF is made when the link is opened). The stored email is the one source of
 * what it says: `mailId` is required (400 otherwise) and the spec's descriptive query fields (to,
 * from, subject, userType, date, case reference) are not needed (docs/decisions.md 277).
 */
export async function emailPdfLink(
  { db, actor }: ServiceContext,
  input: { applicationId: number; mailId?: number },
): Promise<DownloadLink> {
  const { applicationId, mailId } = input;
  if (mailId === undefined) throw AppError.validation({ mailId: 'required' });
  const { email } = await findApplicationEmail(db, actor, applicationId, mailId);
  return issueDownloadLink(
    db,
    actor,
    { kind: 'emailPdf', applicationId, emailId: email.id },
    `${formatApplicationId(applicationId)}-email-${email.id}.pdf`,
  );
}
