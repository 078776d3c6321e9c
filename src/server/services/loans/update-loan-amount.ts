import { eq, sql } from 'drizzle-orm';
import { loans } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import * as loanPolicy from '../../policies/loans';
import { assertCan } from '../../policies/assert-can';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import {
  makeVariationDocument,
  openVariationEnvelope,
  sendVariation,
  voidOpenVariation,
  voidRemoteVariations,
  type SentVariation,
  type VoidedEnvelope,
} from '../esign/variation-envelope';
import { voidAtProvider } from '../esign/remote-envelopes';
import { facilityChange } from '../../../shared/rules/credit';
import { drawdownAmountCode, loanAmountCode } from '../../../shared/rules/drawdown-request';
import { toPence, toPounds } from '../../../shared/rules/money';
import type { FieldCode } from '../../../shared/rules/error-codes';
import { findLoan, lockLoan, type LoanRow } from './find-loan';
import { tellLoanAmount, tellVariationRequested } from './loan-notices';
import { facilityOf, loanFacts } from './present-loan';
import { updateDraftLoanAmount } from '../applications/update-draft-loan-amount';

function assertOpen(loan: LoanRow): void {
  if (!loanPolicy.isAllowedNow('updateAmount', loanFacts(loan))) throw new AppError(409, 'loanNotOpen');
}

/** Never below what has been drawn ('Is less than already drawdowned amount'). */
function assertNotBelowDrawn(loan: LoanRow, amount: number): void {
  const below = loanAmountCode(amount, loan.drawnPence);
  if (below) throw AppError.validation({ amount: below as FieldCode });
}

/** The facility on the audit: what was signed and what waited for a signature (integer pence). */
const facilityState = (signedPence: number, pendingPence: number | null) => ({
  amountPence: signedPence,
  pendingAmountPence: pendingPence,
});

/**
 * Staff's 'update loan facility', while the loan is open (409 `loanNotOpen` otherwise): a number above
 * 0 with pence at most, never below what has been drawn (400 `belowDrawdowns`), checked under the
 * loan's lock so a drawdown requested at the same moment is counted (docs/decisions.md, 505-508).
 *
 * - At or below the signed facility the change takes effect at once, with no signature (the client
 *   owes no more than they signed for), and withdraws a pending variation.
 * - Above it, the figure becomes the pending variation: a new Credit Agreement for it is laid out
 *   (before the lock: a PDF takes a while), put in a signature envelope and the client is emailed
 *   to sign it from their loan's page; an earlier pending variation is voided. Nothing above the
 *   signed facility may be drawn until the client signs. With ESIGN_PROVIDER=docusign the agreement
 *   is sent to DocuSign before the lock, as the contract set is (docs/decisions.md, 536); one sent
 *   and then not recorded is voided there again, and so is a variation this change withdraws.
 *
 * Audited with the facility before and after; the lawyer and the client are told.
 */
export async function updateLoanAmount(
  ctx: ServiceContext,
  input: { loanId?: number | null; applicationId?: number; amount: number },
) {
  // Without a loan, the amount is the application's draft figure, set during the provider's review.
  if (input.loanId == null) return updateDraftLoanAmount(ctx, input);
  const { db, actor, config, storage } = ctx;
  const loanId = input.loanId;
  const code = drawdownAmountCode(input.amount);
  if (code) throw AppError.validation({ amount: code as FieldCode });
  const found = await findLoan(db, actor, loanId);
  assertCan(loanPolicy.can(actor, 'updateAmount', found));
  if (input.applicationId !== undefined && input.applicationId !== found.applicationId)
    throw AppError.validation({ applicationId: 'invalid' });
  assertOpen(found);
  assertNotBelowDrawn(found, input.amount);
  const pence = toPence(input.amount)!;
  const change = facilityChange(pence, facilityOf(found));
  const document = change === 'variation' ? await makeVariationDocument(ctx, found, pence) : undefined;

  let sent: SentVariation | undefined;
  let voided: VoidedEnvelope[] = [];
  let recorded = false;
  try {
    if (document) sent = await sendVariation(ctx, found, document);
    recorded = await db.transaction(async (tx) => {
      await lockLoan(tx, loanId);
      const loan = await findLoan(tx, actor, loanId);
      assertOpen(loan);
      assertNotBelowDrawn(loan, input.amount);
      // The signed facility moved while the agreement was laid out (the client signed a variation,
      // or someone else changed it): the decision or the agreement's words would be wrong now.
      if (
        facilityChange(pence, facilityOf(loan)) !== change ||
        (document !== undefined && document.previousAmountPence !== loan.amountPence)
      )
        throw new AppError(409, 'conflict');
      if (change === 'unchanged') return false;
      const from = facilityState(loan.amountPence, loan.pendingAmountPence);

      if (document) {
        let envelopeId: string;
        ({ envelopeId, voided } = await openVariationEnvelope(ctx, tx, loan, document, sent));
        await tx
          .update(loans)
          .set({ pendingAmountPence: pence, updatedAt: sql`now()` })
          .where(eq(loans.id, loan.id));
        await recordAudit(tx, {
          actorUserId: actor.id,
          entityType: 'loan',
          entityId: loan.id,
          action: 'variationRequested',
          from,
          to: { ...facilityState(loan.amountPence, pence), envelopeId },
        });
        await tellVariationRequested(tx, config, loan, pence);
        return true;
      }

      voided = await voidOpenVariation(tx, loan.id, actor, ctx.origin);
      const withdrawn = voided.map((envelope) => envelope.id);
      await tx
        .update(loans)
        .set({ amountPence: pence, pendingAmountPence: null, updatedAt: sql`now()` })
        .where(eq(loans.id, loan.id));
      await recordAudit(tx, {
        actorUserId: actor.id,
        entityType: 'loan',
        entityId: loan.id,
        action: 'amountLowered',
        from,
        to: { ...facilityState(pence, null), ...(withdrawn.length > 0 ? { voidedEnvelopeIds: withdrawn } : {}) },
      });
      await tellLoanAmount(tx, config, loan, pence);
      return true;
    });
  } finally {
    if (document && !recorded)
      await storage.remove(document.key).catch((error) => ctx.logError('variation agreement left behind', error));
    if (sent && !recorded) await voidAtProvider(ctx, [sent.envelopeId], 'The portal did not record this variation.');
  }
  await voidRemoteVariations(ctx, voided);
  const loan = await findLoan(db, actor, loanId);
  return {
    applicationId: loan.applicationId,
    loanId,
    amount: toPounds(loan.amountPence),
    pendingAmount: loan.pendingAmountPence === null ? null : toPounds(loan.pendingAmountPence),
  };
}
