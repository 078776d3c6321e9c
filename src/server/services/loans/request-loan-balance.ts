import { AppError } from '../../errors/app-error';
import * as loanPolicy from '../../policies/loans';
import { assertCan } from '../../policies/assert-can';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { takeAttempt } from '../../auth/rate-limit';
import { BALANCE_REQUEST_WINDOW_MS, BALANCE_REQUESTS_PER_WINDOW } from '../../../shared/rules/rate-limits';
import { findLoan } from './find-loan';
import { tellBalanceRequested } from './loan-notices';
import { loanFacts } from './present-loan';

/**
 * The lawyer's 'request loan balance': staff are told by email ('The administrator will contact
 * you'), and it is audited. A few per loan and hour at most (429 beyond), so the button cannot
 * flood the provider's mailbox.
 */
export async function requestLoanBalance({ db, actor, config }: ServiceContext, { id }: { id: number }) {
  const loan = await findLoan(db, actor, id);
  assertCan(loanPolicy.can(actor, 'requestBalance', loan));
  if (!loanPolicy.isAllowedNow('requestBalance', loanFacts(loan))) throw new AppError(409, 'conflict');
  const requestedAt = new Date();
  await db.transaction(async (tx) => {
    const attempt = await takeAttempt(
      tx,
      [{ key: `loan-balance:${loan.id}`, max: BALANCE_REQUESTS_PER_WINDOW }],
      BALANCE_REQUEST_WINDOW_MS,
    );
    if (!attempt.allowed) throw new AppError(429, 'tooManyAttempts', { retryAfter: attempt.retryAfter });
    await recordAudit(tx, { actorUserId: actor.id, entityType: 'loan', entityId: loan.id, action: 'balanceRequested' });
    await tellBalanceRequested(tx, config, loan);
  });
  return { loanId: loan.id, requestedAt: requestedAt.toISOString() };
}
