import type { Database } from '../db/connection';
import { emails } from '../db/schema';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Who it is for (admin, firm, lawyer, customer): the application's email list shows it. */
  userType: string;
  applicationId?: number | null;
}

/**
 * Every email goes into the outbox, in the caller's transaction: it is sent only if the change
 * that caused it is committed. The sender (or the development mailbox) takes it from there.
 */
export async function enqueueEmail(db: Database, email: OutgoingEmail): Promise<number> {
  const [row] = await db
    .insert(emails)
    .values({
      toAddress: email.to,
      subject: email.subject,
      textBody: email.text,
      htmlBody: email.html,
      userType: email.userType,
      applicationId: email.applicationId ?? null,
    })
    .returning({ id: emails.id });
  return row!.id;
}
