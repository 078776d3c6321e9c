import type { applications } from '../db/schema';
import { PdfWriter } from './document';
import { fieldText, printedFields } from './labels';
import { valueLabel } from '../../shared/journey/labels';
import { customerStepTitles, journeySteps, lawyerStepTitles, type JourneyStep } from '../../shared/journey/steps';
import { assetTypes, optionLabel } from '../../shared/journey/options';
import { formatApplicationId, formatDate, formatDateTime, formatMoney } from '../../shared/rules/formats';
import { applicationStatusLabels, type ApplicationStatus } from '../../shared/rules/statuses';

export type PdfVariant = 'full' | 'summary';
export type Audience = 'lawyer' | 'customer';

/** Fields of each step in the order the forms ask them (the shared labels module's order). */
const stepFields: Record<JourneyStep, readonly string[]> = Object.fromEntries(journeySteps.map((step) => [step, printedFields(step)])) as unknown as Record<JourneyStep, readonly string[]>;

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

function present(value: unknown): boolean {
  return !(value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0));
}

/** One answer as the PDF prints it: Yes/No, £1,234.56, DD/MM/YYYY, option labels; ids as names. */
export function formatValue(field: string, value: unknown, data: Pick<PdfData, 'solicitorNames' | 'fileNames'>): string {
  if (field === 'solicitorId') return typeof value === 'number' ? (data.solicitorNames.get(value) ?? `Solicitor ${value}`) : '';
  if (field === 'documents' && Array.isArray(value)) return value.map((id) => data.fileNames.get(id as number) ?? `Document ${String(id)} (removed)`).join('\n');
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return JSON.stringify(value);
  return valueLabel(field, value);
}

function addressText(entry: Record<string, unknown>): string {
  const line = (...p: unknown[]) => p.filter((x) => typeof x === 'string' && x.trim() !== '').map((x) => String(x).trim()).join(' ');
  const parts = entry.type === 'manually' || !present(entry.address) ? [line(entry.house, entry.street), entry.city] : [entry.address];
  return [...parts, entry.postcode].filter((p) => typeof p === 'string' && p.trim() !== '').join(', ');
}

function writeStep(pdf: PdfWriter, step: JourneyStep, data: Record<string, unknown>, fields: readonly string[], audience: Audience, lookups: PdfData): void {
  for (const field of fields) {
    if (field === 'birthDayDay') {
      const { birthDayDay: d, birthMonth: m, birthYear: y } = data as { birthDayDay?: number; birthMonth?: number; birthYear?: number };
      if (d || m || y) pdf.row(fieldText(step, 'birthDayDay', audience), [d, m, y].map((n, i) => (n ? String(n).padStart(i === 2 ? 4 : 2, '0') : '--')).join('/'));
      continue;
    }
    const value = data[field];
    if (!present(value)) continue;
    if (field === 'addressHistory' && Array.isArray(value)) {
      pdf.subheading(fieldText(step, field, audience));
      value.forEach((entry: Record<string, unknown>, i) => {
        pdf.row(`${fieldText(step, 'addressHistory.address', audience)} ${i + 1}`, addressText(entry ?? {}));
        if (present(entry?.date)) pdf.row(fieldText(step, 'addressHistory.date', audience), valueLabel('addressHistory.date', entry.date));
      });
      continue;
    }
    if (field === 'assets' && Array.isArray(value)) {
      pdf.subheading(fieldText(step, field, audience));
      value.forEach((asset: Record<string, unknown>, i) => {
        const kind = asset?.type === 'other' && present(asset.typeoOther) ? String(asset.typeoOther) : optionLabel(assetTypes, asset?.type);
        pdf.row(`${fieldText(step, 'assets.type', audience)} (${i + 1})`, kind || '-');
        for (const part of ['valueOfRealisable', 'clientsInterest']) {
          if (present(asset?.[part])) pdf.row(fieldText(step, `assets.${part}`, audience), valueLabel(part, asset[part]));
        }
      });
      continue;
    }
    pdf.row(fieldText(step, field, audience), formatValue(field, value, lookups));
  }
}

function stepTitle(step: JourneyStep, audience: Audience): string {
  return audience === 'customer' || step === 'client' ? customerStepTitles[step] : lawyerStepTitles[step as Exclude<JourneyStep, 'client'>];
}

export interface PdfOptions {
  variant: PdfVariant;
  audience: Audience;
  productName: string;
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

  for (const step of journeySteps) {
    const stepData = journey[step];
    const fields = options.variant === 'full' ? stepFields[step] : summaryFields[step];
    if (!fields) continue;
    if (!stepData || !fields.some((f) => present(stepData[f]) || (f === 'birthDayDay' && present(stepData.birthYear)))) {
      if (options.variant === 'full') {
        pdf.heading(stepTitle(step, options.audience));
        pdf.paragraph('Not filled in yet.');
      }
      continue;
    }
    pdf.heading(stepTitle(step, options.audience));
    writeStep(pdf, step, stepData, fields, options.audience, data);
  }
  return pdf.finish();
}
