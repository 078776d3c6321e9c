import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/connection';
import { applications, loans } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import { loanMayTakeVariation } from '../../policies/loans';
import { recordAudit } from '../audit';
import { loanById } from '../loans/find-loan';
import { tellVariationSigned } from '../loans/loan-notices';
import { loanReference } from '../../../shared/rules/loan-reference';
import { recordEnvelopeEvent, type EnvelopeRow } from './envelope-record';
import type { SignedEnvelopeFinisher, SigningResult } from './record-signed-envelope';

/**
 * A signed variation (docs/decisions.md, 507, 535): under the loan's lock the loan must still take
 * one (open or blocked) and wait for this very figure (a lower figure or a newer raise voided it:
 * 409); then the variation's figure becomes the loan's signed facility, once, audited on the loan
 * (`variationSigned`), and the lawyer, the client and staff are told. The application is left as it is.
 */
export async function variationFinisher(tx: Database, envelope: EnvelopeRow): Promise<SignedEnvelopeFinisher> {
  if (envelope.loanId === null || envelope.amountPence === null) throw new AppError(409, 'conflict');
  const loan = await loanById(tx, envelope.loanId);
  const amountPence = envelope.amountPence;
  if (!loanMayTakeVariation(loan.status) || loan.pendingAmountPence !== amountPence) throw new AppError(409, 'conflict');
  return async (db, config, { signer, actor, origin, eventDetail, detail }) => {
    await db
      .update(loans)
      .set({ amountPence, pendingAmountPence: null, updatedAt: sql`now()` })
      .where(eq(loans.id, loan.id));
    await recordEnvelopeEvent(db, { envelopeId: envelope.id, type: 'signed', actor, origin, detail: eventDetail });
    await recordAudit(db, {
      actorUserId: actor?.id ?? null,
      entityType: 'loan',
      entityId: loan.id,
      action: 'variationSigned',
      from: { amountPence: loan.amountPence, pendingAmountPence: loan.pendingAmountPence },
      to: { amountPence, pendingAmountPence: null, envelopeId: envelope.id, ...detail },
    });
    await tellVariationSigned(db, config, loan, amountPence);
    const [application] = await db
      .select({ status: applications.status })
      .from(applications)
      .where(eq(applications.id, envelope.applicationId));
    return {
      applicationId: envelope.applicationId,
      envelopeId: envelope.id,
      kind: 'variation',
      status: application!.status as SigningResult['status'],
      signedAt: signer.signedAt.toISOString(),
      loanId: loan.id,
      loanReference: loanReference(loan.id),
    };
  };
}
