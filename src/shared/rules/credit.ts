/**
 * A loan's credit, in integer pence (docs/decisions.md, 505-509). The client signs for a facility
 * (the Credit Agreement, then each variation); staff may set it higher, but what lies above the
 * signed facility waits for the client's signature and cannot be drawn until then. Both sides use
 * these rules: the drawdown form's hint and check, the loan page's figures, and the server's checks
 * under the loan's row lock.
 */

/** A loan's facility as the rules read it. */
export interface LoanFacility {
  /** What the client has signed for: the credit offered. */
  signedPence: number;
  /** A higher facility waiting for the client's signature, or null. */
  pendingPence: number | null;
  /** The drawdowns that use the credit (every one not refused: decision 233). */
  drawnPence: number;
}

/** What is left to draw: the signed facility less what is drawn (may be below 0 after a change). */
export function creditAvailablePence(facility: Pick<LoanFacility, 'signedPence' | 'drawnPence'>): number {
  return facility.signedPence - facility.drawnPence;
}

/** The credit a pending variation would add once signed (0 when none waits). */
export function creditAwaitingSignaturePence(facility: Pick<LoanFacility, 'signedPence' | 'pendingPence'>): number {
  return facility.pendingPence === null ? 0 : Math.max(0, facility.pendingPence - facility.signedPence);
}

/** What a drawdown may take now, and what it could take once the client signs the pending variation. */
export interface CreditLimit {
  availablePence: number;
  awaitingSignaturePence: number;
}

export function creditLimit(facility: LoanFacility): CreditLimit {
  return { availablePence: creditAvailablePence(facility), awaitingSignaturePence: creditAwaitingSignaturePence(facility) };
}

export type CreditCode = 'exceedsCredit' | 'exceedsSignedCredit';

/**
 * A drawdown of `amountPence` against the limit: within the signed credit it may go; above it but
 * within what the pending variation would add, it waits for the client's signature
 * (`exceedsSignedCredit`); beyond both, it exceeds the credit ('The drawdown amount can't exceed
 * available credit').
 */
export function drawdownCreditCode(amountPence: number, limit: CreditLimit): CreditCode | undefined {
  if (amountPence <= limit.availablePence) return undefined;
  if (amountPence <= limit.availablePence + limit.awaitingSignaturePence) return 'exceedsSignedCredit';
  return 'exceedsCredit';
}

/**
 * What staff's new facility does (decisions 506, 508): at or below the signed facility it takes
 * effect at once and withdraws a pending variation ('lower'; the same figure with nothing pending
 * changes nothing: 'unchanged'); above it, it becomes the pending variation the client is asked to
 * sign, replacing any earlier one ('variation'). Never below what is drawn: loanAmountCode.
 */
export type FacilityChange = 'lower' | 'unchanged' | 'variation';

export function facilityChange(newPence: number, facility: Pick<LoanFacility, 'signedPence' | 'pendingPence'>): FacilityChange {
  if (newPence > facility.signedPence) return 'variation';
  if (newPence === facility.signedPence && facility.pendingPence === null) return 'unchanged';
  return 'lower';
}
