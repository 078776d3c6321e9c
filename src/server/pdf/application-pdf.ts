import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../db/connection';
import { applications, applicationSteps, clients, files, firms, lawyers, solicitors, users } from '../db/schema';
import { PdfWriter } from './document';
import { printedFields, printedSections } from '../../shared/journey/display';
import { journeySteps, type JourneyStep } from '../../shared/journey/steps';
import { formatApplicationId, formatDate, formatDateTime, formatMoney } from '../../shared/rules/formats';
import { applicationStatusLabels, type ApplicationStatus } from '../../shared/rules/statuses';

export type PdfVariant = 'full' | 'summary';
export type Audience = 'lawyer' | 'customer';

export function applicationPdfFileName(applicationId: number, variant: PdfVariant): string {
  return `${formatApplicationId(applicationId)}${variant === 'summary' ? '-summary' : ''}.pdf`;
}

/** The summary PDF: who, what case, how much, how repaid. */
const summaryFields: Partial<Record<JourneyStep, readonly string[]>> = {
  personal: ['firstName', 'lastName', 'email', 'contactNumber'],
  case: ['caseRef', 'stageOfProceedings', 'feeEstimate'],
  financial: ['estimationOfSettlementAmount'],
  asset: ['submittedFormE', 'documents', 'assetValue', 'routeToRepayment'],
  independent: ['useOwnSolicitor', 'solicitorId'],
};

interface PdfData {
  application: typeof applications.$inferSelect;
  client: { firstName: string; lastName: string; email: string };
  lawyer: { firstName: string; surname: string; firm: string };
  journey: Partial<Record<JourneyStep, Record<string, unknown>>>;
  solicitorNames: Map<number, string>;
  fileNames: Map<number, string>;
}

async function loadPdfData(db: Database, applicationId: number): Promise<PdfData | undefined> {
  const [row] = await db
    .select({
      application: applications,
      clientFirstName: clients.firstName,
      clientLastName: clients.lastName,
      clientEmail: users.email,
      lawyerUserId: lawyers.userId,
      firm: firms.name,
    })
    .from(applications)
    .innerJoin(clients, eq(clients.id, applications.clientId))
    .innerJoin(users, eq(users.id, clients.userId))
    .innerJoin(lawyers, eq(lawyers.id, applications.lawyerId))
    .innerJoin(firms, eq(firms.id, lawyers.firmId))
    .where(eq(applications.id, applicationId))
    .limit(1);
  if (!row) return undefined;
  const [lawyerUser] = await db.select({ firstName: users.firstName, surname: users.surname }).from(users).where(eq(users.id, row.lawyerUserId));
  const steps = await db.select().from(applicationSteps).where(eq(applicationSteps.applicationId, applicationId));
  const journey: PdfData['journey'] = {};
  for (const s of steps) if ((journeySteps as readonly string[]).includes(s.step)) journey[s.step as JourneyStep] = s.data ?? {};

  const solicitorId = journey.independent?.solicitorId;
  const solicitorNames = new Map<number, string>();
  if (typeof solicitorId === 'number') {
    for (const s of await db.select({ id: solicitors.id, name: solicitors.name }).from(solicitors).where(eq(solicitors.id, solicitorId))) solicitorNames.set(s.id, s.name);
  }
  const documentIds = (Array.isArray(journey.asset?.documents) ? journey.asset.documents : []).filter((id): id is number => Number.isInteger(id));
  const fileNames = new Map<number, string>();
  if (documentIds.length > 0) {
    const rows = await db
      .select({ id: files.id, fileName: files.fileName })
      .from(files)
      .where(and(eq(files.applicationId, applicationId), inArray(files.id, documentIds), isNull(files.deletedAt)))
      .orderBy(asc(files.id));
    for (const f of rows) fileNames.set(f.id, f.fileName);
  }
  return {
    application: row.application,
    client: { firstName: row.clientFirstName, lastName: row.clientLastName, email: row.clientEmail },
    lawyer: { firstName: lawyerUser?.firstName ?? '', surname: lawyerUser?.surname ?? '', firm: row.firm },
    journey,
    solicitorNames,
    fileNames,
  };
}

/**
 * The application as a PDF (made on demand when its download link is opened): the summary block
 * (client, status, dates, lawyer, amount), then every step's answers with their question labels
 * (full) or the key figures (summary). Undefined when the application does not exist.
 */
export async function renderApplicationPdf(
  db: Database,
  options: { applicationId: number; variant: PdfVariant; audience: Audience; productName: string; now?: Date },
): Promise<Uint8Array | undefined> {
  const data = await loadPdfData(db, options.applicationId);
  if (!data) return undefined;
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

  const fieldsOf = options.variant === 'full' ? printedFields : (step: JourneyStep) => summaryFields[step];
  for (const section of printedSections(journey, journeySteps, options.audience, data, fieldsOf)) {
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
