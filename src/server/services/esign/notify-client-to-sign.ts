import { eq, sql } from 'drizzle-orm';
import { applications, envelopes } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { assertCan } from '../../policies/assert-can';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { findApplication } from '../applications/find-application';
import { presentApplication, type ApplicationRecord } from '../applications/present-application';
import { notifyByPush } from '../../push/notify';
import { tellParties } from '../loans/loan-parties';
import { applicationTransitions, roleMayTransition, transitionAllowedFrom } from '../../../shared/rules/transitions';
import { findOpenEnvelope, recordEnvelopeEvent } from './envelope-record';

function assertMayNotify(application: { status: string }): void {
  if (!transitionAllowedFrom(applicationTransitions, application.status, 'customerNotified')) throw new AppError(409, 'conflict');
}

/**
 * POST /docusign/notify: staff tell the client the documents are ready to sign ('Notify client'):
 * esignPrepared → customerNotified, with an email to the client linking to the
 * application-esign-prepared page. 409 without an open envelope.
 */
export async function notifyClientToSign(ctx: ServiceContext, input: { applicationId: number }): Promise<ApplicationRecord> {
  const { db, actor, config } = ctx;
  const found = await findApplication(db, actor, input.applicationId);
  assertCan(roleMayTransition(applicationTransitions, actor.role, 'customerNotified'));
  assertMayNotify(found);

  await db.transaction(async (tx) => {
    const application = await findApplication(tx, actor, input.applicationId, { forUpdate: true });
    assertMayNotify(application);
    const envelope = await findOpenEnvelope(tx, application.id, { forUpdate: true });
    if (!envelope) throw new AppError(409, 'conflict');
    await tx
      .update(envelopes)
      .set({ status: 'notified', notifiedAt: sql`now()` })
      .where(eq(envelopes.id, envelope.id));
    await tx
      .update(applications)
      .set({ status: 'customerNotified', updatedAt: sql`now()` })
      .where(eq(applications.id, application.id));
    await recordEnvelopeEvent(tx, { envelopeId: envelope.id, type: 'notified', actor, origin: ctx.origin });
    await recordAudit(tx, {
      actorUserId: actor.id,
      entityType: 'application',
      entityId: application.id,
      action: 'clientNotifiedToSign',
      from: { status: application.status },
      to: { status: 'customerNotified', envelopeId: envelope.id },
    });
    await tellParties(tx, config, application.id, ['customer'], () => ({
      subject: 'Your documents are ready to sign',
      heading: 'Your documents are ready to sign',
      body: 'The independent advice certificate was received. You can now view and sign the documents of your application.',
      action: 'View and sign documents',
      path: `/applications/${application.id}/application-esign-prepared`,
    }));
    await notifyByPush(tx, { kind: 'documents-ready', applicationId: application.id });
  });
  return presentApplication(db, actor, await findApplication(db, actor, input.applicationId));
}
