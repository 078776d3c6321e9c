import { eq, sql } from 'drizzle-orm';
import { loans } from '../../db/schema';
import { AppError } from '../../http/app-error';
import * as loanPolicy from '../../policies/loans';
import { assertCan } from '../../policies/assert-can';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { drawdownAmountCode, loanAmountCode, toPence, toPounds } from '../../../shared/rules/money';
import type { FieldCode } from '../../../shared/rules/error-codes';
import { findLoan, lockLoan, type LoanRow } from './find-loan';
import { tellLoanAmount } from './loan-notices';
import { loanFacts } from './present-loan';
import { updateDraftLoanAmount } from '../applications/update-draft-loan-amount';

function assertOpen(loan: LoanRow): void {
  if (!loanPolicy.isAllowedNow('updateAmount', loanFacts(loan))) throw new AppError(409, 'loanNotOpen');
}

/**
 * Staff's 'update loan facility': the loan's credit offered, while it is open (409 `loanNotOpen`
 * otherwise), a number above 0 with pence at most, never below what has been drawn (400
 * `belowDrawdowns`: 'Is less than already drawdowned amount'), checked under the loan's lock so a
 * drawdown requested at the same moment is counted. Audited; the lawyer and the client are told.
 */
export async function updateLoanAmount(
  ctx: ServiceContext,
  input: { loanId?: number | null; applicationId?: number; amount: number },
) {
  // Without a loan, the amount is the application's draft figure, set during the provider's review.
  if (input.loanId == null) return updateDraftLoanAmount(ctx, input);
  const { db, actor, config } = ctx;
  const loanId = input.loanId;
  const code = drawdownAmountCode(input.amount);
  if (code) throw AppError.validation({ amount: code as FieldCode });
  const found = await findLoan(db, actor, loanId);
  assertCan(loanPolicy.can(actor, 'updateAmount', found));
  if (input.applicationId !== undefined && input.applicationId !== found.applicationId)
    throw AppError.validation({ applicationId: 'invalid' });
  assertOpen(found);
  const pence = toPence(input.amount)!;
  await db.transaction(async (tx) => {
    await lockLoan(tx, loanId);
    const loan = await findLoan(tx, actor, loanId);
    assertOpen(loan);
    const below = loanAmountCode(input.amount, loan.drawnPence);
    if (below) throw AppError.validation({ amount: below as FieldCode });
    await tx
      .update(loans)
      .set({ amountPence: pence, updatedAt: sql`now()` })
      .where(eq(loans.id, loan.id));
    await recordAudit(tx, {
      actorUserId: actor.id,
      entityType: 'loan',
      entityId: loan.id,
      action: 'amountChanged',
      from: { amountPence: loan.amountPence },
      to: { amountPence: pence },
    });
    await tellLoanAmount(tx, config, loan, toPounds(pence));
  });
  return { applicationId: found.applicationId, loanId, amount: toPounds(pence) };
}
