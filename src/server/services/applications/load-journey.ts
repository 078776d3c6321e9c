import { eq } from 'drizzle-orm';
import type { Database } from '../../db/connection';
import { applicationSteps } from '../../db/schema';
import { isJourneyStep, type Journey, type JourneyStep } from '../../../shared/journey/steps';

/** The saved steps of an application: the journey and each step's version. */
export async function loadJourney(
  db: Database,
  applicationId: number,
): Promise<{ journey: Journey; versions: Partial<Record<JourneyStep, number>> }> {
  const rows = await db
    .select({ step: applicationSteps.step, data: applicationSteps.data, version: applicationSteps.version })
    .from(applicationSteps)
    .where(eq(applicationSteps.applicationId, applicationId));
  const journey: Record<string, unknown> = {};
  const versions: Partial<Record<JourneyStep, number>> = {};
  for (const row of rows) {
    if (!isJourneyStep(row.step)) continue;
    journey[row.step] = row.data;
    versions[row.step] = row.version;
  }
  return { journey: journey as Journey, versions };
}
