import { formatApplicationId, formatDateTime } from '../../shared/rules/formats';
import { PdfWriter } from './document';
import { providerRoleStatement, type ProviderIdentity } from '../../shared/rules/provider-identity';

/** One stored email, as its PDF prints it (GET /pdf-generator/from-email). */
export interface EmailPdfData {
  applicationId: number;
  caseRef: string | null;
  from: string;
  to: string;
  userType: string;
  subject: string;
  /** ISO date-time the email was written to the outbox. */
  date: string;
  text: string;
}

const recipientLabels: Record<string, string> = { admin: 'Provider', firm: 'Law firm', lawyer: 'Lawyer', customer: 'Client' };

/** The email's PDF: who, when and what about, then the text of the email as it was sent. */
export async function layoutEmailPdf(
  data: EmailPdfData,
  options: { productName: string; provider: ProviderIdentity },
): Promise<Uint8Array> {
  const writer = await PdfWriter.create({
    title: data.subject,
    author: options.productName,
    footer: `${options.productName} · ${formatApplicationId(data.applicationId)} · email`,
    legal: providerRoleStatement(options.provider),
  });
  writer.title(data.subject, `Email about application ${formatApplicationId(data.applicationId)}`);
  writer.row('Application', formatApplicationId(data.applicationId));
  writer.row('Case reference', data.caseRef ?? '');
  writer.row('Date', formatDateTime(data.date));
  writer.row('From', data.from);
  writer.row('To', data.to);
  writer.row('Recipient', recipientLabels[data.userType] ?? data.userType);
  writer.row('Subject', data.subject);
  writer.heading('Message');
  for (const paragraph of data.text.split(/\n\s*\n/)) if (paragraph.trim()) writer.paragraph(paragraph.trim());
  return writer.finish();
}
