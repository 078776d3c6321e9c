import { and, eq } from 'drizzle-orm';
import type { SessionUser } from '../../auth/sessions';
import type { Config } from '../../config';
import type { Database } from '../../db/connection';
import { emails } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import * as applicationPolicy from '../../policies/applications';
import { assertCan } from '../../policies/assert-can';
import { findApplication, type ApplicationRow } from '../applications/find-application';
import type { components } from '../../../shared/api/schema';

export type SentEmail = components['schemas']['SentEmail'];
export type SentEmailDetail = components['schemas']['SentEmailDetail'];
export type EmailRow = typeof emails.$inferSelect;

/**
 * The application whose emails staff read (docs/decisions.md 277): 404 out of scope (the one scoped
 * loader), 403 for anyone but staff (the contract already lets only staff in).
 */
export async function findMailApplication(db: Database, actor: SessionUser, applicationId: number): Promise<ApplicationRow> {
  const application = await findApplication(db, actor, applicationId);
  assertCan(applicationPolicy.can(actor, 'review', application));
  return application;
}

/** One email of that application, or 404 (another application's email, or none). */
export async function findApplicationEmail(
  db: Database,
  actor: SessionUser,
  applicationId: number,
  mailId: number,
): Promise<{ application: ApplicationRow; email: EmailRow }> {
  const application = await findMailApplication(db, actor, applicationId);
  const [email] = await db
    .select()
    .from(emails)
    .where(and(eq(emails.id, mailId), eq(emails.applicationId, applicationId)));
  if (!email) throw AppError.notFound();
  return { application, email };
}

/** The spec's sent email record (id, date, userType, subject) with who it went to and from. */
export function toSentEmail(
  row: Pick<EmailRow, 'id' | 'createdAt' | 'userType' | 'subject' | 'toAddress'>,
  config: Config,
): SentEmail {
  return {
    id: row.id,
    date: new Date(row.createdAt).toISOString(),
    userType: row.userType as SentEmail['userType'],
    subject: row.subject,
    to: row.toAddress,
    from: config.mailFrom,
  };
}
