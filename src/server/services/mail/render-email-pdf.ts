import { and, eq } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Database } from '../../db/connection';
import { applications, emails } from '../../db/schema';
import { renderInWorker } from '../../pdf/render-in-worker';

/**
 * The PDF of one stored email of an application, laid out in a worker thread under the PDF time
 * limit (as the application's PDF); undefined when the email is no longer that application's.
 */
export async function renderEmailPdf(
  db: Database,
  config: Config,
  grant: { applicationId: number; emailId: number },
): Promise<Uint8Array | undefined> {
  const [row] = await db
    .select({ email: emails, caseRef: applications.caseRef })
    .from(emails)
    .innerJoin(applications, eq(applications.id, emails.applicationId))
    .where(and(eq(emails.id, grant.emailId), eq(emails.applicationId, grant.applicationId)));
  if (!row) return undefined;
  const { email } = row;
  return renderInWorker(
    {
      email: {
        applicationId: grant.applicationId,
        caseRef: row.caseRef,
        from: config.mailFrom,
        to: email.toAddress,
        userType: email.userType,
        subject: email.subject,
        date: new Date(email.createdAt).toISOString(),
        text: email.textBody,
      },
      options: { productName: config.brand.productName, provider: config.brand },
    },
    { timeoutMs: config.timeouts.pdfTimeoutMs },
  );
}
