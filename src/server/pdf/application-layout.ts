import type { applications } from '../db/schema';
import { PdfWriter } from './document';
import { printedFields, printedSections } from '../../shared/journey/display';
import { journeySteps, type JourneyStep } from '../../shared/journey/steps';
import { formatApplicationId, formatDate, formatDateTime, formatMoney } from '../../shared/rules/formats';
import { providerRoleStatement, type ProviderIdentity } from '../../shared/rules/provider-identity';
import { applicationStatusLabels, type ApplicationStatus } from '../../shared/rules/statuses';

export type PdfVariant = 'full' | 'summary';
export type Audience = 'lawyer' | 'customer';

/** The summary PDF: who, what case, how much, how repaid. */
const summaryFields: Partial<Record<JourneyStep, readonly string[]>> = {
  personal: ['firstName', 'lastName', 'email', 'contactNumber'],
  case: ['caseRef', 'stageOfProceedings', 'feeEstimate'],
  financial: ['estimationOfSettlementAmount'],
  asset: ['submittedFormE', 'documents', 'assetValue', 'routeToRepayment'],
  independent: ['useOwnSolicitor', 'solicitorId'],
};

/** Everything the PDF prints, read from the database first: plain data a worker thread can be given. */
export interface PdfData {
  application: typeof applications.$inferSelect;
  client: { firstName: string; lastName: string; email: string };
  lawyer: { firstName: string; surname: string; firm: string };
  journey: Partial<Record<JourneyStep, Record<string, unknown>>>;
  solicitorNames: Map<number, string>;
  fileNames: Map<number, string>;
}

export interface PdfOptions {
  variant: PdfVariant;
  audience: Audience;
  productName: string;
  /** Whose role every page's footer states (docs/decisions.md: 495). */
  provider: ProviderIdentity;
  now?: Date;
}

/**
 * The layout itself, on whatever thread calls it: the summary block (client, status, dates, lawyer,
 * amount), then every step's answers with their question labels (full) or the key figures (summary).
 */
export async function layoutApplicationPdf(data: PdfData, options: PdfOptions): Promise<Uint8Array> {
  const { application, client, lawyer, journey } = data;
  const id = formatApplicationId(application.id);
  const pdf = await PdfWriter.create({
    title: `${options.productName} - application ${id}`,
    author: options.productName,
    footer: `${options.productName} - application ${id}`,
    legal: providerRoleStatement(options.provider),
  });
  pdf.title(`Application ${id}${options.variant === 'summary' ? ' - summary' : ''}`, options.productName);
  pdf.heading('Application');
  pdf.row('Client', [client.firstName, client.lastName].filter(Boolean).join(' ') || '-');
  pdf.row('Client email', client.email);
  pdf.row('Status', applicationStatusLabels[application.status as ApplicationStatus] ?? application.status);
  pdf.row('Started', formatDate(application.startedAt));
  pdf.row('Last updated', formatDate(application.updatedAt));
  pdf.row('Lawyer', [lawyer.firstName, lawyer.surname].filter(Boolean).join(' ') || '-');
  pdf.row('Law firm', lawyer.firm);
  if (application.caseRef) pdf.row('Case reference', application.caseRef);
  if (application.loanAmountPence !== null) pdf.row('Loan facility', formatMoney(application.loanAmountPence / 100));
  pdf.row('Generated', formatDateTime(options.now ?? new Date()));

  const fieldsOf = options.variant === 'full' ? printedFields : (step: JourneyStep) => summaryFields[step];
  // The client's confirmation is the client's own step, not in the lawyer's form: their PDF shows it
  // once the client has given it, never as a step the lawyer has still to fill (decision 334).
  const steps = journeySteps.filter((step) => step !== 'client' || options.audience === 'customer' || journey.client);
  for (const section of printedSections(journey, steps, options.audience, data, fieldsOf)) {
    // The full PDF shows every step, the summary only what is answered.
    if (!section.answered && options.variant !== 'full') continue;
    pdf.heading(section.title);
    if (!section.answered) pdf.paragraph('Not filled in yet.');
    for (const line of section.lines) {
      if (line.kind === 'subheading') pdf.subheading(line.text);
      else pdf.row(line.label, line.value);
    }
  }
  return pdf.finish();
}
