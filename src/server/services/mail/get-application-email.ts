import type { ServiceContext } from '../context';
import { findApplicationEmail, toSentEmail, type SentEmailDetail } from './email-record';

/** GET /mail/{id}/{mailId}: one email of the application with its bodies (404 for another application's). */
export async function getApplicationEmail(
  { db, actor, config }: ServiceContext,
  input: { applicationId: number; mailId: number },
): Promise<SentEmailDetail> {
  const { email } = await findApplicationEmail(db, actor, input.applicationId, input.mailId);
  return { ...toSentEmail(email, config), text: email.textBody, html: email.htmlBody };
}
