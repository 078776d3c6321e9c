import { eq, sql } from 'drizzle-orm';
import { loans } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import * as loanPolicy from '../../policies/loans';
import { assertCan } from '../../policies/assert-can';
import { recordAudit } from '../audit';
import { voidOpenVariation, voidRemoteVariations, type VoidedEnvelope } from '../esign/variation-envelope';
import type { ServiceContext } from '../context';
import type { LoanStatus } from '../../../shared/rules/statuses';
import { findLoan, lockLoan, type LoanRow } from './find-loan';
import { tellLoanStatus } from './loan-notices';
import { loanFacts, presentLoan } from './present-loan';

/** 409 unless the loan's status allows the change now; checked before the lock and again under it. */
function assertAllowedNow(loan: LoanRow, to: LoanStatus): void {
  if (!loanPolicy.isAllowedNow({ changeStateTo: to }, loanFacts(loan))) throw new AppError(409, 'conflict');
}

/**
 * Blocks, unblocks, sets paid or closes a loan, by the shared transitions table: 403 for a caller
 * who may never make the change (the client blocks only their own loan), 409 `conflict` when the
 * loan's status does not allow it (someone changed it meanwhile), nothing changed. Audited; the
 * others concerned are told by email.
 */
export async function changeLoanState(ctx: ServiceContext, input: { id: number; state: LoanStatus }) {
  const { db, actor, config, origin } = ctx;
  const action = { changeStateTo: input.state };
  const found = await findLoan(db, actor, input.id);
  assertCan(loanPolicy.can(actor, action, found));
  assertAllowedNow(found, input.state);
  let voided: VoidedEnvelope[] = [];
  await db.transaction(async (tx) => {
    await lockLoan(tx, input.id);
    const loan = await findLoan(tx, actor, input.id);
    assertAllowedNow(loan, input.state);
    // A paid or closed loan takes no variation: one still waiting for the client's signature is
    // withdrawn with it (docs/decisions.md, 511).
    const withdraw = loan.pendingAmountPence !== null && !loanPolicy.loanMayTakeVariation(input.state);
    await tx
      .update(loans)
      .set({ status: input.state, updatedAt: sql`now()`, ...(withdraw ? { pendingAmountPence: null } : {}) })
      .where(eq(loans.id, loan.id));
    await recordAudit(tx, {
      actorUserId: actor.id,
      entityType: 'loan',
      entityId: loan.id,
      action: 'statusChanged',
      from: { status: loan.status },
      to: { status: input.state },
    });
    if (withdraw) {
      voided = await voidOpenVariation(tx, loan.id, actor, origin);
      await recordAudit(tx, {
        actorUserId: actor.id,
        entityType: 'loan',
        entityId: loan.id,
        action: 'variationWithdrawn',
        from: { amountPence: loan.amountPence, pendingAmountPence: loan.pendingAmountPence },
        to: {
          amountPence: loan.amountPence,
          pendingAmountPence: null,
          status: input.state,
          voidedEnvelopeIds: voided.map((envelope) => envelope.id),
        },
      });
    }
    await tellLoanStatus(tx, config, loan, input.state, actor.role);
  });
  // One sent to DocuSign is voided there too, once the change is committed (docs/decisions.md, 536).
  await voidRemoteVariations(ctx, voided);
  return presentLoan(actor, await findLoan(db, actor, input.id));
}
