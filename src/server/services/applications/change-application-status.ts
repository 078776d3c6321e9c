import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/connection';
import { applications } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import * as applicationPolicy from '../../policies/applications';
import type { ApplicationAction } from '../../policies/applications';
import { revokeAllSessions } from '../../auth/sessions';
import { removeSessionSubscriptions } from '../../push/session-subscriptions';
import { assertCan } from '../../policies/assert-can';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { audienceOf, type Audience } from '../../../shared/journey/audience';
import type { Journey, JourneyData } from '../../../shared/journey/steps';
import { toPence } from '../../../shared/rules/money';
import { submitBlockers } from '../../../shared/journey/submit';
import type { ApplicationStatus } from '../../../shared/rules/statuses';
import { isTransitionByOwnCall, reviewChecksComplete } from '../../../shared/rules/review';
import {
  applicationStartStatuses,
  applicationTransitions,
  roleMayTransition,
  transitionAllowedFrom,
} from '../../../shared/rules/transitions';
import { generateContractDocuments } from '../esign/generate-contract-documents';
import { tellStatusChange } from './application-notices';
import { findApplication, type ApplicationRow } from './find-application';
import { liveDocumentCount } from './journey-references';
import { loadJourney } from './load-journey';
import { presentApplication, type ApplicationRecord } from './present-application';
import { statusRefusal } from './status-refusal';

/**
 * 409 conflict unless the table allows the change from the application's status, saying who moved
 * it there and when; made before the lock and under it.
 */
async function assertTransitionFrom(
  db: Database,
  actor: ServiceContext['actor'],
  application: { id: number; status: string },
  to: ApplicationStatus,
): Promise<void> {
  if (!transitionAllowedFrom(applicationTransitions, application.status, to))
    throw await statusRefusal(db, actor, application, 'conflict');
}

/**
 * 'accept' only with the three review checks ticked (409 `checksIncomplete`) and a loan amount to
 * put in the contract (409 `loanAmountMissing`); made before the lock and under it.
 */
function assertReviewed(to: ApplicationStatus, application: ApplicationRow): void {
  if (to !== 'providerAccepted') return;
  if (!reviewChecksComplete(application)) throw new AppError(409, 'checksIncomplete');
  if (!application.loanAmountPence || application.loanAmountPence <= 0) throw new AppError(409, 'loanAmountMissing');
}

/** The policy's action behind a change: submitting, the client's own decision (its own client only), or the provider's review. */
function actionOf(to: ApplicationStatus): ApplicationAction {
  if (to === 'submitted') return 'submit';
  if (to === 'customerRejected' || to === 'customerApproved') return 'withdraw';
  return 'review';
}

/**
 * Moves an application to another status, by the shared transitions table (docs/decisions.md 270):
 * 409 `conflict` back to where an application starts; 403 for a role that may never make the
 * change or a caller it is not for (the application's lawyer or client, staff for the review);
 * 409 `ownCall` for the changes their own calls make (the envelope, the notice, the signature);
 * 409 `conflict` when the current status does not allow it; 409 `checksIncomplete` to accept
 * without the three review checks; submitting needs every step of the submitter's own form valid
 * (400 `incompleteSteps`). Each check is made again under the row lock. The change is audited (who,
 * from, to, the reason), its emails are queued, and the client's withdrawal ends every session of
 * their account (decision 273).
 */
export async function changeApplicationStatus(
  ctx: ServiceContext,
  input: { applicationId: number; state: ApplicationStatus; reason?: string },
): Promise<ApplicationRecord> {
  const { db, actor, config } = ctx;
  const to = input.state;
  const reason = input.reason?.trim() ? input.reason.trim() : undefined;
  const found = await findApplication(db, actor, input.applicationId);
  if (applicationStartStatuses.includes(to)) throw new AppError(409, 'conflict');
  assertCan(roleMayTransition(applicationTransitions, actor.role, to));
  if (isTransitionByOwnCall(to)) throw new AppError(409, 'ownCall');
  assertCan(applicationPolicy.can(actor, actionOf(to), found));
  await assertTransitionFrom(db, actor, found, to);
  assertReviewed(to, found);

  await db.transaction(async (tx) => {
    const application = await findApplication(tx, actor, input.applicationId, { forUpdate: true });
    await assertTransitionFrom(tx, actor, application, to);
    assertReviewed(to, application);
    const journey = to === 'submitted' ? await assertComplete(tx, application.id, audienceOf(actor.role)) : undefined;
    // The draft loan amount staff review starts as the case's fee estimate (decision 276).
    const draftAmount = journey && application.loanAmountPence === null ? draftLoanAmountPence(journey) : undefined;
    await tx
      .update(applications)
      .set({ status: to, updatedAt: sql`now()`, ...(draftAmount ? { loanAmountPence: draftAmount } : {}) })
      .where(eq(applications.id, application.id));
    await recordAudit(tx, {
      actorUserId: actor.id,
      entityType: 'application',
      entityId: application.id,
      action: 'statusChanged',
      from: { status: application.status },
      to: { status: to, ...(reason ? { reason } : {}) },
    });
    await tellStatusChange(tx, config, application, to, reason);
    if (to === 'customerRejected') {
      await revokeAllSessions(tx, actor.id);
      await removeSessionSubscriptions(tx, { userId: actor.id });
    }
  });
  if (to === 'providerAccepted') await makeContractDocuments(ctx, input.applicationId);
  return presentApplication(db, actor, await findApplication(db, actor, input.applicationId));
}

/**
 * On acceptance the contract set is made for the client and their adviser to read (docs/decisions.md
 * 280). The acceptance stands whatever happens here: a set that cannot be made yet (no loan amount) or
 * fails is logged, and is made again, with the amounts then current, when the envelope is prepared.
 */
async function makeContractDocuments(ctx: ServiceContext, applicationId: number): Promise<void> {
  try {
    await generateContractDocuments(ctx.db, ctx.storage, ctx.config, applicationId, { uploadedBy: ctx.actor.id });
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'validation'))
      ctx.logError('contract documents were not made on acceptance', error);
  }
}

/** What blocks a submit (the shared rule), plus what only the server sees; 400 `incompleteSteps` names the steps. */
async function assertComplete(db: Database, applicationId: number, audience: Audience): Promise<Journey> {
  const { journey } = await loadJourney(db, applicationId);
  const fields: Record<string, 'required'> = {};
  for (const step of submitBlockers(journey, audience, { today: new Date() })) fields[step] = 'required';
  // "With Form E a document is required": the files the step named may have been deleted since.
  const asset = journey.asset as JourneyData['asset'] | undefined;
  if (!fields.asset && asset?.submittedFormE === true && (await liveDocumentCount(db, applicationId, asset)) === 0)
    fields.asset = 'required';
  if (Object.keys(fields).length > 0) throw new AppError(400, 'incompleteSteps', { fields });
  return journey;
}

/** The case's fee estimate (the total facility amount) in pence, when it is an amount. */
function draftLoanAmountPence(journey: Journey): number | undefined {
  const estimate = (journey.case as { feeEstimate?: unknown } | undefined)?.feeEstimate;
  const pence = typeof estimate === 'number' ? toPence(estimate) : undefined;
  return pence && pence > 0 ? pence : undefined;
}
