import { eq, sql } from 'drizzle-orm';
import { applications } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import * as applicationPolicy from '../../policies/applications';
import { assertCan } from '../../policies/assert-can';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import type { FieldCode } from '../../../shared/rules/error-codes';
import { drawdownAmountCode } from '../../../shared/rules/drawdown-request';
import { toPence, toPounds } from '../../../shared/rules/money';
import { isStaffWorkStatus } from '../../../shared/rules/review';
import { findApplication } from './find-application';

/** 409 notEditable once the envelope is prepared (or before the review): the amount is the review's. */
function assertAmountOpen(application: { status: string }): void {
  if (!isStaffWorkStatus(application.status)) throw new AppError(409, 'notEditable');
}

/**
 * POST /loans/update without a loanId: staff's 'update loan facility' on the application's draft
 * loan amount, before a loan exists (docs/decisions.md 007, 276). `applicationId` is required (400
 * `required`), the amount above 0 with pence at most (the loan amount's codes), only in the review
 * and prepare states (409 `notEditable` otherwise: from esignPrepared on the contract is made with
 * it). Checked again under the application's row lock; audited.
 */
export async function updateDraftLoanAmount(
  { db, actor }: ServiceContext,
  input: { applicationId?: number; amount: number },
): Promise<{ applicationId: number; loanId: null; amount: number; pendingAmount: null }> {
  const { applicationId } = input;
  if (applicationId === undefined) throw AppError.validation({ applicationId: 'required' });
  const code = drawdownAmountCode(input.amount);
  if (code) throw AppError.validation({ amount: code as FieldCode });
  const found = await findApplication(db, actor, applicationId);
  assertCan(applicationPolicy.can(actor, 'review', found));
  assertAmountOpen(found);
  const pence = toPence(input.amount)!;
  await db.transaction(async (tx) => {
    const application = await findApplication(tx, actor, applicationId, { forUpdate: true });
    assertAmountOpen(application);
    await tx
      .update(applications)
      .set({ loanAmountPence: pence, updatedAt: sql`now()` })
      .where(eq(applications.id, application.id));
    await recordAudit(tx, {
      actorUserId: actor.id,
      entityType: 'application',
      entityId: application.id,
      action: 'loanAmountChanged',
      from: { loanAmountPence: application.loanAmountPence },
      to: { loanAmountPence: pence },
    });
  });
  return { applicationId, loanId: null, amount: toPounds(pence), pendingAmount: null };
}
