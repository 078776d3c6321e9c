import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../db/connection';
import { applicationSteps, files, solicitors } from '../db/schema';
import type { PdfData, PdfOptions, PdfVariant } from './application-layout';
import { loadApplicationParties } from './application-parties';
import { renderInWorker } from './render-in-worker';
import { journeySteps, type JourneyStep } from '../../shared/journey/steps';
import { formatApplicationId } from '../../shared/rules/formats';

export function applicationPdfFileName(applicationId: number, variant: PdfVariant): string {
  return `${formatApplicationId(applicationId)}${variant === 'summary' ? '-summary' : ''}.pdf`;
}

async function loadPdfData(db: Database, applicationId: number): Promise<PdfData | undefined> {
  const parties = await loadApplicationParties(db, applicationId);
  if (!parties) return undefined;
  const { row, lawyerUser } = parties;
  const steps = await db.select().from(applicationSteps).where(eq(applicationSteps.applicationId, applicationId));
  const journey: PdfData['journey'] = {};
  for (const s of steps) if ((journeySteps as readonly string[]).includes(s.step)) journey[s.step as JourneyStep] = s.data ?? {};

  const solicitorId = journey.independent?.solicitorId;
  const solicitorNames = new Map<number, string>();
  if (typeof solicitorId === 'number') {
    for (const s of await db
      .select({ id: solicitors.id, name: solicitors.name })
      .from(solicitors)
      .where(eq(solicitors.id, solicitorId)))
      solicitorNames.set(s.id, s.name);
  }
  const documentIds = (Array.isArray(journey.asset?.documents) ? journey.asset.documents : []).filter((id): id is number =>
    Number.isInteger(id),
  );
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
 * The application as a PDF (made on demand when its download link is opened). The records are read
 * here; the layout runs in a worker thread under a time limit (render-in-worker.ts), so a long
 * answer never holds the event loop. Undefined when the application does not exist.
 */
export async function renderApplicationPdf(
  db: Database,
  options: PdfOptions & { applicationId: number; timeoutMs?: number },
): Promise<Uint8Array | undefined> {
  const data = await loadPdfData(db, options.applicationId);
  if (!data) return undefined;
  const { applicationId: _id, timeoutMs, ...layout } = options;
  return renderInWorker({ data, options: layout }, { timeoutMs });
}
