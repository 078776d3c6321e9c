import { and, eq, sql } from 'drizzle-orm';
import { applications, applicationSteps, clients, users } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { audienceOf } from '../../../shared/journey/audience';
import { mayAnswerStep, withOtherPartyAnswers } from '../../../shared/journey/ownership';
import type { Journey, JourneyData, JourneyStep } from '../../../shared/journey/steps';
import { assertEditable, assertMayEditJourney } from './application-checks';
import { clientFields, normalizeEmail } from './client-fields';
import { findApplication } from './find-application';
import { checkDocuments, checkSolicitor } from './journey-references';
import { validatedStep } from './validated-step';

type Personal = JourneyData['personal'];

export interface StepSaved {
  data: Journey;
  version: number;
}

/**
 * Saves one step. The caller edits from `baseVersion`; when the stored copy has moved on, 409
 * `conflict` with the stored copy. The application row is locked for the save, so two saves of
 * one application (and a save and a submit) never interleave.
 */
export async function saveStep(
  { db, actor: user }: ServiceContext,
  { step, ...body }: { step: JourneyStep; applicationId: number; baseVersion: number; journeyData: Journey },
): Promise<StepSaved> {
  const keys = Object.keys(body.journeyData);
  if (keys.length !== 1 || keys[0] !== step) throw AppError.validation({ journeyData: 'invalid' });
  const found = await findApplication(db, user, body.applicationId);
  assertMayEditJourney(user, found);
  await assertEditable(db, user, found);
  const audience = audienceOf(user.role);
  // Each party attests only for itself: the client confirmation is the client's own step.
  if (!mayAnswerStep(step, audience)) throw AppError.forbidden();
  const validated = validatedStep(step, body.journeyData[step], audience);
  if (step === 'personal' && normalizeEmail((validated as Personal).email) !== found.clientEmail)
    throw AppError.validation({ email: 'emailLocked' });

  return db.transaction(async (tx) => {
    const application = await findApplication(tx, user, body.applicationId, { forUpdate: true });
    await assertEditable(tx, user, application);
    const [stored] = await tx
      .select({ data: applicationSteps.data, version: applicationSteps.version })
      .from(applicationSteps)
      .where(and(eq(applicationSteps.applicationId, application.id), eq(applicationSteps.step, step)));
    const current = stored?.version ?? 0;
    if (current !== body.baseVersion) {
      throw new AppError(409, 'conflict', { current: { data: stored ? { [step]: stored.data } : {}, version: current } });
    }
    // The other party's answers in this step (the lawyer's consent and authority) are theirs to give.
    const { data, refused } = withOtherPartyAnswers(step, audience, validated as Record<string, unknown>, stored?.data);
    if (refused.length > 0) throw AppError.validation(Object.fromEntries(refused.map((field) => [field, 'notYours'])));
    if (step === 'asset') await checkDocuments(tx, application.id, data as JourneyData['asset']);
    if (step === 'independent') await checkSolicitor(tx, data as JourneyData['independent']);
    const version = current + 1;
    const row = { data: data as Record<string, unknown>, version, updatedBy: user.id, updatedAt: sql`now()` };
    if (stored) {
      await tx
        .update(applicationSteps)
        .set(row)
        .where(
          and(
            eq(applicationSteps.applicationId, application.id),
            eq(applicationSteps.step, step),
            eq(applicationSteps.version, current),
          ),
        );
    } else {
      await tx.insert(applicationSteps).values({ applicationId: application.id, step, ...row });
    }
    await recordAudit(tx, {
      actorUserId: user.id,
      entityType: 'application',
      entityId: application.id,
      action: 'stepSaved',
      from: { step, version: current },
      to: { step, version },
    });

    const changes: Partial<typeof applications.$inferInsert> = { updatedAt: sql`now()` as unknown as Date };
    if (step === 'case') changes.caseRef = (data as JourneyData['case']).caseRef?.trim() || null;
    // The client's first save: the client has joined and the form is under way.
    if (user.role === 'customer' && application.status === 'incomplete') {
      changes.status = 'created';
      await recordAudit(tx, {
        actorUserId: user.id,
        entityType: 'application',
        entityId: application.id,
        action: 'statusChanged',
        from: { status: 'incomplete' },
        to: { status: 'created' },
      });
    }
    await tx.update(applications).set(changes).where(eq(applications.id, application.id));

    if (step === 'personal') {
      const client = clientFields(data as Personal);
      await tx
        .update(clients)
        .set({ ...client, updatedAt: sql`now()` })
        .where(eq(clients.id, application.clientId));
      await tx
        .update(users)
        .set({ firstName: client.firstName, surname: client.lastName, updatedAt: sql`now()` })
        .where(eq(users.id, application.clientUserId));
    }
    return { data: { [step]: data } as Journey, version };
  });
}
