import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/connection';
import { applications, loans } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { recordAudit } from '../audit';
import { notifyByPush } from '../../push/notify';
import { tellParties } from '../loans/loan-parties';
import { loanReference } from '../../../shared/rules/loan-reference';
import { applicationTransitions, transitionAllowedFrom } from '../../../shared/rules/transitions';
import { recordEnvelopeEvent, type EnvelopeRow } from './envelope-record';
import type { SignedEnvelopeFinisher } from './record-signed-envelope';

/**
 * A signed contract set (docs/decisions.md 285, 528): under the application's lock its status must
 * still allow signing (409 otherwise); then the application is customerAccepted and its loan is
 * created, once, with the envelope event, the audit and the lawyer's and the client's emails.
 */
export async function contractFinisher(tx: Database, envelope: EnvelopeRow): Promise<SignedEnvelopeFinisher> {
  const [application] = await tx.select().from(applications).where(eq(applications.id, envelope.applicationId));
  if (!application || !transitionAllowedFrom(applicationTransitions, application.status, 'customerAccepted'))
    throw new AppError(409, 'conflict');
  return async (db, config, { signer, actor, origin, eventDetail, detail }) => {
    await db
      .update(applications)
      .set({ status: 'customerAccepted', updatedAt: sql`now()` })
      .where(eq(applications.id, application.id));
    const [loan] = await db
      .insert(loans)
      .values({ applicationId: application.id, amountPence: application.loanAmountPence ?? 0, status: 'open' })
      .returning({ id: loans.id });
    await recordEnvelopeEvent(db, { envelopeId: envelope.id, type: 'signed', actor, origin, detail: eventDetail });
    await recordAudit(db, {
      actorUserId: actor?.id ?? null,
      entityType: 'application',
      entityId: application.id,
      action: 'signed',
      from: { status: application.status },
      to: { status: 'customerAccepted', envelopeId: envelope.id, loanId: loan!.id, ...detail },
    });
    await recordAudit(db, {
      actorUserId: actor?.id ?? null,
      entityType: 'loan',
      entityId: loan!.id,
      action: 'created',
      to: { status: 'open', amountPence: application.loanAmountPence, applicationId: application.id },
    });
    const reference = loanReference(loan!.id);
    await tellParties(db, config, application.id, ['lawyer'], () => ({
      subject: `Loan ${reference} created: your client signed the documents`,
      heading: 'A loan has been created',
      body: `Your client has signed the documents. A loan (${reference}) has been created for this application.`,
      action: 'View application',
      path: `/applications/${application.id}/application-customer-accepted-lawyer`,
    }));
    await tellParties(db, config, application.id, ['customer'], () => ({
      subject: 'You have signed your documents',
      heading: 'Your documents are signed',
      body: `Thank you. You have signed the documents and your loan (${reference}) has been created. You can download the signed documents from your application.`,
      action: 'View application',
      path: `/applications/${application.id}/application-customer-accepted-provider`,
    }));
    await notifyByPush(db, { kind: 'loan-created', applicationId: application.id, loanId: loan!.id });
    return {
      applicationId: application.id,
      envelopeId: envelope.id,
      kind: 'contract',
      status: 'customerAccepted',
      signedAt: signer.signedAt.toISOString(),
      loanId: loan!.id,
      loanReference: reference,
    };
  };
}
