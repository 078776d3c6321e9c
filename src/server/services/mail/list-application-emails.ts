import { count, desc, eq } from 'drizzle-orm';
import { emails } from '../../db/schema';
import { pageOf, pageOffset, type Paging } from '../../db/paging';
import type { ServiceContext } from '../context';
import type { components } from '../../../shared/api/schema';
import { findMailApplication, toSentEmail } from './email-record';

type SentEmailList = components['schemas']['SentEmailList'];

/** GET /mail/{id}: a page of the emails sent about the application, newest first (staff only). */
export async function listApplicationEmails(
  { db, actor, config }: ServiceContext,
  input: Paging & { applicationId: number },
): Promise<SentEmailList> {
  const { applicationId, ...paging } = input;
  await findMailApplication(db, actor, applicationId);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: emails.id,
        createdAt: emails.createdAt,
        userType: emails.userType,
        subject: emails.subject,
        toAddress: emails.toAddress,
      })
      .from(emails)
      .where(eq(emails.applicationId, applicationId))
      .orderBy(desc(emails.createdAt), desc(emails.id))
      .limit(paging.pageSize)
      .offset(pageOffset(paging)),
    db.select({ n: count() }).from(emails).where(eq(emails.applicationId, applicationId)),
  ]);
  return pageOf(
    rows.map((row) => toSentEmail(row, config)),
    total?.n,
    paging,
  );
}
