import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Config } from '../../config';
import type { Database } from '../../db/connection';
import { applications, clients, lawyers, users } from '../../db/schema';
import { enqueueEmail } from '../../mail/outbox';
import { renderEmail, type EmailParts } from '../../mail/templates';

const clientUsers = alias(users, 'client_users');
const lawyerUsers = alias(users, 'lawyer_users');

/** Who is told about a loan's case: its lawyer, its client, and the provider's staff (their shared mailbox). */
export type Recipient = 'lawyer' | 'customer' | 'admin';

/** An email's words without its address: the path on the portal its button opens. */
export type NoticeWords = Omit<EmailParts, 'url'> & { path: string };

/**
 * Emails about a case (its application, loan or drawdowns), written to the outbox in the caller's
 * transaction (sent only if the change commits) and recorded against the case's application, as
 * its other emails are. Staff are told at the provider's configured address (the drawdowns mailbox
 * of the brand): one place the team watches, whoever is on duty. Each email speaks to its reader:
 * `words` is given the recipient, so the client reads 'your loan' where the lawyer reads 'your
 * client's loan' (docs/decisions.md 450).
 */
export async function tellParties(
  db: Database,
  config: Config,
  applicationId: number,
  recipients: readonly Recipient[],
  words: (recipient: Recipient) => NoticeWords,
): Promise<void> {
  if (recipients.length === 0) return;
  const [party] = await db
    .select({ lawyerEmail: lawyerUsers.email, clientEmail: clientUsers.email })
    .from(applications)
    .innerJoin(clients, eq(clients.id, applications.clientId))
    .innerJoin(clientUsers, eq(clientUsers.id, clients.userId))
    .innerJoin(lawyers, eq(lawyers.id, applications.lawyerId))
    .innerJoin(lawyerUsers, eq(lawyerUsers.id, lawyers.userId))
    .where(eq(applications.id, applicationId));
  if (!party) return;
  const addressOf: Record<Recipient, string> = {
    lawyer: party.lawyerEmail,
    customer: party.clientEmail,
    admin: config.brand.email,
  };
  for (const recipient of new Set(recipients)) {
    const { path, ...parts } = words(recipient);
    const email = renderEmail(config.brand, { ...parts, url: `${config.publicUrl}${path}` });
    await enqueueEmail(db, { ...email, to: addressOf[recipient], userType: recipient, applicationId });
  }
}
