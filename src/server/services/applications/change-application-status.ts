import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/connection';
import { applications } from '../../db/schema';
import { AppError } from '../../http/app-error';
import * as applicationPolicy from '../../policies/applications';
import { assertCan } from '../../policies/assert-can';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { audienceOf, type Audience } from '../../../shared/journey/audience';
import type { JourneyData } from '../../../shared/journey/steps';
import { submitBlockers } from '../../../shared/journey/submit';
import type { ApplicationStatus } from '../../../shared/rules/statuses';
import {
  applicationStartStatuses,
  applicationTransitions,
  roleMayTransition,
  transitionAllowedFrom,
} from '../../../shared/rules/transitions';
import { findApplication } from './find-application';
import { liveDocumentCount } from './journey-references';
import { loadJourney } from './load-journey';
import { presentApplication, type ApplicationRecord } from './present-application';

/**
 * The transitions of the table this server makes so far; the provider's review, signing and the
 * rest answer 501 until their issues build them (docs/decisions.md: status changes built so far).
 */
const builtTransitions: readonly ApplicationStatus[] = ['submitted'];

/** 409 conflict unless the table allows the change from the application's status; made before the lock and under it. */
function assertTransitionFrom(application: { status: string }, to: ApplicationStatus): void {
  if (!transitionAllowedFrom(applicationTransitions, application.status, to)) throw new AppError(409, 'conflict');
}

/**
 * Moves an application to another status, by the shared transitions table: 403 for a role that may
 * never make the change, 409 when the current status does not allow it. Submitting needs every step
 * of the submitter's own form valid: 400 `incompleteSteps` naming the others.
 */
export async function changeApplicationStatus(
  { db, actor }: ServiceContext,
  input: { applicationId: number; state: ApplicationStatus; reason?: string },
): Promise<ApplicationRecord> {
  const to = input.state;
  const found = await findApplication(db, actor, input.applicationId);
  if (!builtTransitions.includes(to)) {
    if (applicationStartStatuses.includes(to)) throw new AppError(409, 'conflict');
    throw new AppError(501, 'notImplemented');
  }
  assertCan(roleMayTransition(applicationTransitions, actor.role, to));
  if (to === 'submitted') assertCan(applicationPolicy.can(actor, 'submit', found));
  assertTransitionFrom(found, to);

  await db.transaction(async (tx) => {
    const application = await findApplication(tx, actor, input.applicationId, { forUpdate: true });
    assertTransitionFrom(application, to);
    if (to === 'submitted') await assertComplete(tx, application.id, audienceOf(actor.role));
    await tx
      .update(applications)
      .set({ status: to, updatedAt: sql`now()` })
      .where(eq(applications.id, application.id));
    await recordAudit(tx, {
      actorUserId: actor.id,
      entityType: 'application',
      entityId: application.id,
      action: 'statusChanged',
      from: { status: application.status },
      to: { status: to, ...(input.reason ? { reason: input.reason } : {}) },
    });
  });
  return presentApplication(db, actor, await findApplication(db, actor, input.applicationId));
}

/** What blocks a submit (the shared rule), plus what only the server sees; 400 `incompleteSteps` names the steps. */
async function assertComplete(db: Database, applicationId: number, audience: Audience): Promise<void> {
  const { journey } = await loadJourney(db, applicationId);
  const fields: Record<string, 'required'> = {};
  for (const step of submitBlockers(journey, audience, { today: new Date() })) fields[step] = 'required';
  // "With Form E a document is required": the files the step named may have been deleted since.
  const asset = journey.asset as JourneyData['asset'] | undefined;
  if (!fields.asset && asset?.submittedFormE === true && (await liveDocumentCount(db, applicationId, asset)) === 0)
    fields.asset = 'required';
  if (Object.keys(fields).length > 0) throw new AppError(400, 'incompleteSteps', { fields });
}
