import type { LoanStatus } from './statuses';
import type { DrawdownRequestHold } from './transitions';

/**
 * Words for loans and drawdowns shown on screens (and usable in emails): the spec names the
 * drawdown form's fields and the declarations by key only, so the labels and statements here are
 * ours (docs/decisions.md 263).
 */

/** A loan's status as shown (spec section 4: open, blocked, paid; closed ours). */
export const loanStatusLabels: Record<LoanStatus, string> = {
  open: 'open',
  blocked: 'blocked',
  paid: 'paid',
  closed: 'closed',
};

/**
 * The loan page's title by the loan's status: the spec's 'Open Loan' only while the loan is open,
 * so a blocked, paid or closed loan never carries a title that says otherwise (docs/decisions.md (415)).
 */
export const loanPageTitles: Record<LoanStatus, string> = {
  open: 'Open Loan',
  blocked: 'Blocked Loan',
  paid: 'Paid Loan',
  closed: 'Closed Loan',
};

/** What the loan's lawyer reads in place of the request form, by the reason it is not there. */
export const drawdownRequestHoldNotices: Record<DrawdownRequestHold, string> = {
  blocked: 'This loan is blocked, so no drawdown can be requested until it is unblocked.',
  paid: 'This loan is paid, so no more drawdowns can be requested.',
  closed: 'This loan is closed, so no more drawdowns can be requested.',
  noCredit: 'There is no credit left on this loan, so no more drawdowns can be requested.',
  // Our wording (docs/decisions.md, 515).
  awaitingSignature:
    'All the credit your client has signed for is drawn, so no more drawdowns can be requested until they sign the variation.',
};

/** The drawdown request form's fields (spec section 3), in the form's order. */
export const drawdownFieldLabels = {
  amount: 'Drawdown amount',
  invoiceNumber: 'Invoice number',
  stageOfCase: 'Stage of the case',
  materialChanges: 'Have there been material changes since the last update?',
  materialChangesDetails: 'Details of the material changes',
  nextHearingDate: 'Next hearing date',
  finalOrderDate: 'Final order date',
  reaplyAssets: 'Assets for repayment',
  expectedRepaymentDate: 'Expected repayment date',
} as const;

/** The material-change flag as the drawdown detail shows it (spec section 2). */
export function materialChangesText(materialChanges: boolean): string {
  return materialChanges ? 'There have been material changes since last update' : 'No material changes since last update';
}
