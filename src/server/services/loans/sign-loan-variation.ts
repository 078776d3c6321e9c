import { envelopeProvider } from '../../esign';
import { AppError } from '../../http/app-error';
import * as loanPolicy from '../../policies/loans';
import { assertCan } from '../../policies/assert-can';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { findOpenVariation } from '../esign/variation-envelope';
import { findLoan, lockLoan, type LoanRow } from './find-loan';
import { loanFacts } from './present-loan';

function assertPending(loan: LoanRow): void {
  if (!loanPolicy.isAllowedNow('signVariation', loanFacts(loan))) throw new AppError(409, 'variationNotPending');
}

/**
 * POST /loans/{id}/variation/sign: the client opens the signing session of their loan's pending
 * variation, as 'sign documents' does for the application's (docs/decisions.md, 507, 510): the
 * portal's signing page with a new single-use, 30-minute token (only its hash kept; a new one
 * replaces the last). The loan's own client only (others 404 by scope, other roles 403); 409
 * `variationNotPending` when no variation waits (signed, or withdrawn meanwhile).
 */
export async function signLoanVariation(ctx: ServiceContext, input: { id: number }): Promise<{ envelopUrl: string }> {
  const { db, actor, config } = ctx;
  const found = await findLoan(db, actor, input.id);
  assertCan(loanPolicy.can(actor, 'signVariation', found));
  assertPending(found);
  return db.transaction(async (tx) => {
    await lockLoan(tx, input.id);
    const loan = await findLoan(tx, actor, input.id);
    assertPending(loan);
    const envelope = await findOpenVariation(tx, loan.id, { forUpdate: true });
    if (!envelope) throw new AppError(409, 'variationNotPending');
    // Finished by the provider that made it: a variation is always the portal's own (docs/decisions.md, 536).
    const provider = envelopeProvider(tx, config, envelope.provider);
    if (provider.signsAt !== 'portal') throw new AppError(409, 'variationNotWithDocusign');
    const { url, expiresAt } = await provider.signingUrl(tx, { envelopeId: envelope.id });
    await recordAudit(tx, {
      actorUserId: actor.id,
      entityType: 'envelope',
      entityId: envelope.id,
      action: 'signingLinkIssued',
      to: { applicationId: loan.applicationId, loanId: loan.id, expiresAt: expiresAt.toISOString() },
    });
    return { envelopUrl: url };
  });
}
