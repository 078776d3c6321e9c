import { drawdowns } from '../../db/schema';
import { AppError } from '../../errors/app-error';
import * as loanPolicy from '../../policies/loans';
import { assertCan } from '../../policies/assert-can';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { creditLimit } from '../../../shared/rules/credit';
import { drawdownAmountCode } from '../../../shared/rules/drawdown-request';
import { loanIsOpen } from '../../../shared/rules/transitions';
import type { components } from '../../../shared/api/schema';
import { findLoan, findLoanOfApplication, lockLoan, type LoanRow } from '../loans/find-loan';
import { facilityOf } from '../loans/present-loan';
import { countDrawdownRequest } from '../../auth/drawdown-request-limit';
import { checkedRequest } from './checked-request';
import { tellDrawdownStatus } from './drawdown-notices';
import { findDrawdown } from './find-drawdown';
import { presentDrawdown } from './present-drawdown';

function assertOpen(loan: LoanRow): void {
  if (!loanIsOpen(loan.status)) throw new AppError(409, 'loanNotOpen');
}

/**
 * The lawyer's 'request drawdown' against the loan of the application named. The request is checked
 * by the shared rules (400 with every field's code); the loan must be open (409 `loanNotOpen`); and
 * the amount may not exceed the credit available (400 `exceedsCredit`; `exceedsSignedCredit` when it
 * fits only a facility still waiting for the client's signature: docs/decisions.md, 509), counted
 * under the loan's row lock so that requests arriving together queue there and can never together
 * draw more than the credit the client signed for. At most so many a day per loan and per lawyer
 * (429 `tooManyAttempts` with Retry-After, nothing written: docs/decisions.md 551). Audited; the
 * provider is told.
 */
export async function requestDrawdown({ db, actor, config }: ServiceContext, body: components['schemas']['DrawdownRequest']) {
  const values = checkedRequest(body);
  const loan = await findLoanOfApplication(db, actor, body.applicationId);
  assertCan(loanPolicy.can(actor, 'requestDrawdown', loan));
  assertOpen(loan);
  const id = await db.transaction(async (tx) => {
    await lockLoan(tx, loan.id);
    const locked = await findLoan(tx, actor, loan.id);
    assertOpen(locked);
    // Only the signed facility may be drawn: above it, a pending variation answers `exceedsSignedCredit`.
    const code = drawdownAmountCode(body.amount, creditLimit(facilityOf(locked)));
    if (code) throw AppError.ruleFailed({ amount: code });
    // Counted last, under the loan's lock: only a request that would be written spends a count.
    await countDrawdownRequest(tx, { loanId: locked.id, user: actor });
    const [row] = await tx
      .insert(drawdowns)
      .values({ loanId: locked.id, status: 'requested', requestedBy: actor.id, ...values })
      .returning({ id: drawdowns.id });
    await recordAudit(tx, {
      actorUserId: actor.id,
      entityType: 'drawdown',
      entityId: row!.id,
      action: 'requested',
      to: { status: 'requested', loanId: locked.id, amountPence: values.amountPence },
    });
    await tellDrawdownStatus(
      tx,
      config,
      {
        id: row!.id,
        loanId: locked.id,
        applicationId: locked.applicationId,
        amountPence: values.amountPence,
        firstName: locked.clientName,
        lastName: locked.clientSurname,
      },
      'requested',
    );
    return row!.id;
  });
  return presentDrawdown(actor, await findDrawdown(db, actor, id));
}
