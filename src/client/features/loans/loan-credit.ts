import { creditAwaitingSignaturePence } from '../../../shared/rules/credit';
import { formatMoney } from '../../../shared/rules/formats';
import { toPounds, wirePence } from '../../../shared/rules/money';
import type { Loan } from './loans-api';

/** The facility waiting for the client's signature; a saved copy written before variations has none. */
export function pendingAmountOf(loan: Pick<Loan, 'pendingAmount'>): number | null {
  return (loan as Partial<Loan>).pendingAmount ?? null;
}

/**
 * What a variation waiting for the client's signature would add to the credit (pounds; 0 when none
 * waits), from the figures the server sent, by the shared rule (docs/decisions.md, 509).
 */
export function creditAwaitingSignature(loan: Pick<Loan, 'amount' | 'pendingAmount'>): number {
  const pending = pendingAmountOf(loan);
  return toPounds(
    creditAwaitingSignaturePence({
      signedPence: wirePence(loan.amount),
      pendingPence: pending === null ? null : wirePence(pending),
    }),
  );
}

/** The drawdown amount's hint: what may be drawn now, and what only once the client signs. */
export function creditHint(creditAvailable: number, awaitingSignature: number): string {
  const now = `Credit available: ${formatMoney(creditAvailable)}`;
  return awaitingSignature > 0 ? `${now} (${formatMoney(awaitingSignature)} more once the client signs the variation)` : now;
}
