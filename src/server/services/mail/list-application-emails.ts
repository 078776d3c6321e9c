import { desc, eq } from 'drizzle-orm';
import { emails } from '../../db/schema';
import { countAsTotal, pageOf, pageLimit, pageSkip, pageWithTotal, type Paging } from '../../db/paging';
import type { ServiceContext } from '../context';
import type { components } from '../../../shared/api/schema';
import { findMailApplication, toSentEmail } from './email-record';

type SentEmailList = components['schemas']['SentEmailList'];

/** GET /mail/{id}: a page of the emails sent about the application, newest first (staff only), and their total: one statement (db/paging.ts). */
export async function listApplicationEmails(
  { db, actor, config }: ServiceContext,
  input: Paging & { applicationId: number },
): Promise<SentEmailList> {
  const { applicationId, ...paging } = input;
  await findMailApplication(db, actor, applicationId);
  const ofApplication = eq(emails.applicationId, applicationId);
  const total = db.select({ total: countAsTotal() }).from(emails).where(ofApplication);
  const { rows, total: n } = await pageWithTotal(db, paging, total, (figures) =>
    db
      .select({
        id: emails.id,
        createdAt: emails.createdAt,
        userType: emails.userType,
        subject: emails.subject,
        toAddress: emails.toAddress,
        figures,
      })
      .from(emails)
      .where(ofApplication)
      .orderBy(desc(emails.createdAt), desc(emails.id))
      .limit(pageLimit(paging))
      .offset(pageSkip(paging)),
  );
  return pageOf(
    rows.map((row) => toSentEmail(row, config)),
    n,
    paging,
  );
}
